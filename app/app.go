// Package app is Wisp's composition root: App owns every service (config, store, /ws
// hub, HTTP API), starts them in order and stops them in reverse. The Wails desktop
// glue lives here behind the "desktop" build tag.
//
// Only this package knows about HTTP, WebSocket and SQLite together.
package app

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/wispapp/wisp/app/api"
	"github.com/wispapp/wisp/app/chat"
	"github.com/wispapp/wisp/app/config"
	"github.com/wispapp/wisp/app/store"
	"github.com/wispapp/wisp/app/ws"
	"github.com/wispapp/wisp/emotes"
	"github.com/wispapp/wisp/runtime"
	"github.com/wispapp/wisp/terminal"
)

// Options are what the command line decides.
type Options struct {
	Host     string // overrides server.host when set
	Port     int    // overrides server.port when >= 0; -1 keeps the config's
	StateDir string // overrides the state folder when set
	Getenv   config.Getenv
	UI       fs.FS
	Logger   *slog.Logger
	// OllamaURL is where a local Ollama is looked for (default http://127.0.0.1:11434).
	OllamaURL string
	// Actions are extra agent actions (tests register their own).
	Actions []runtime.Action
	// NoTitles turns off automatic conversation titles.
	NoTitles bool
	// Desktop generates a per-launch token and, if the configured port is taken,
	// falls back to a free one (the window learns the port through a binding).
	Desktop bool
}

// Connection is what a client needs to reach the API.
type Connection struct {
	BaseURL string `json:"baseURL"`
	WSURL   string `json:"wsURL"`
	Token   string `json:"token"`
	// TerminalToken is the terminal token, when one is needed (see api.TerminalGate).
	TerminalToken string `json:"terminalToken,omitempty"`
}

// App owns Wisp's services.
type App struct {
	opts     Options
	log      *slog.Logger
	stateDir string
	file     *config.File
	fileMu   sync.Mutex    // serialises changes to the config file made through the API
	cfg      config.Config // file + environment: what this process runs with

	launchToken string
	models      *models
	actions     *runtime.Registry
	chat        *chat.Service
	emotes      *emotes.Catalog
	term        *terminal.Manager
	termGate    *api.TerminalGate
	store       *store.Store
	hub         *ws.Hub
	ln          net.Listener
	srv         *http.Server
	serveErr    chan error

	state     atomic.Value // string, one of the status states
	startedAt time.Time
	stopOnce  sync.Once
}

// New loads the configuration and checks it can be served safely. Nothing is opened.
func New(opts Options) (*App, error) {
	if opts.Getenv == nil {
		opts.Getenv = os.Getenv
	}
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	a := &App{opts: opts, log: opts.Logger, serveErr: make(chan error, 1)}
	a.state.Store("not_started")
	if err := a.loadConfig(); err != nil {
		return nil, err
	}
	if opts.Desktop {
		a.launchToken = randomToken()
	}
	if opts.OllamaURL == "" {
		opts.OllamaURL = opts.Getenv("WISP_OLLAMA_URL")
	}
	a.models = newModels(a.cfg.Model, opts.OllamaURL, a.log)
	a.actions = runtime.NewRegistry()
	for _, act := range opts.Actions {
		if err := a.actions.Register(act); err != nil {
			return nil, err
		}
	}
	if err := a.newEmotes(); err != nil {
		return nil, err
	}
	if !api.IsLoopback(a.cfg.Server.Host) && a.cfg.API.Token == "" && a.launchToken == "" {
		return nil, fmt.Errorf("refusing to listen on %s without an API token: set WISP_API_TOKEN (or api.token in %s), or listen on 127.0.0.1",
			a.cfg.Server.Host, a.file.Path)
	}
	return a, nil
}

func (a *App) loadConfig() error {
	dir := a.opts.StateDir
	if dir == "" {
		d, err := config.StateDir(a.opts.Getenv)
		if err != nil {
			return err
		}
		dir = d
	}
	a.stateDir = dir
	f, err := config.Load(config.Path(a.opts.Getenv, dir))
	if err != nil {
		return err
	}
	cfg, err := f.Config.WithEnv(a.opts.Getenv)
	if err != nil {
		return fmt.Errorf("environment: %w", err)
	}
	if a.opts.Host != "" {
		cfg.Server.Host = a.opts.Host
	}
	if a.opts.Port >= 0 {
		cfg.Server.Port = a.opts.Port
	}
	if err := cfg.Validate(); err != nil {
		return err
	}
	a.file, a.cfg = f, cfg
	return nil
}

func randomToken() string {
	b := make([]byte, 32)
	_, _ = rand.Read(b) // crypto/rand never fails on Linux
	return hex.EncodeToString(b)
}

// Start opens the database, listens, and serves the API and /ws until Stop.
func (a *App) Start(ctx context.Context) error {
	a.state.Store("starting")
	st, err := store.Open(ctx, filepath.Join(a.stateDir, "wisp.db"))
	if err != nil {
		a.state.Store("error")
		return err
	}
	a.store = st
	if err := a.listen(); err != nil {
		st.Close()
		a.state.Store("error")
		return err
	}
	guard := api.NewGuard(api.GuardOptions{
		Port: a.Port(), BindHost: a.cfg.Server.Host, ExtraHosts: a.cfg.Server.AllowedHosts,
		ExtraOrigins: a.cfg.Server.AllowedOrigins, Tokens: []string{a.cfg.API.Token, a.launchToken},
	})
	a.hub = ws.New(ws.Options{
		Authorized: guard.Authorized, Required: guard.Required, CheckOrigin: guard.OriginAllowed,
		AllowQueryToken: a.opts.Getenv("WISP_ALLOW_WS_QUERY_TOKEN") == "1",
		Status:          a.statusFrame, Journal: journal{st}, Logger: a.log,
		Handlers: a.terminalFrames(),
	})
	a.term, a.termGate = a.newTerminal()
	if err := a.hub.Start(); err != nil {
		a.ln.Close()
		st.Close()
		a.state.Store("error")
		return fmt.Errorf("start ws hub: %w", err)
	}
	a.chat = chat.New(chat.Options{
		Store: st, Agent: a.newAgent(), Hub: chatHub{a.hub}, Logger: a.log.With("component", "chat"),
		CanRespond: a.models.CanRespond, NoTitles: a.opts.NoTitles,
	})
	if err := a.chat.Start(ctx); err != nil {
		a.hub.Stop()
		a.ln.Close()
		st.Close()
		a.state.Store("error")
		return fmt.Errorf("start chat: %w", err)
	}
	handler := api.New(api.Options{
		Guard: guard, Hub: a.hub, Status: a.status, UI: a.opts.UI, Logger: a.log,
		Chat: a.chat, Providers: providers{a}, CanRespond: a.models.CanRespond,
		Terminal: &api.Terminal{Manager: a.term, Gate: a.termGate, ConfigPath: a.file.Path},
		Emotes:   &api.Emotes{Catalog: a.emotes, Play: a.playEmote},
	}).Handler()
	a.watchEmotes()
	a.srv = &http.Server{
		Handler:           handler,
		ReadHeaderTimeout: 10 * time.Second,
		IdleTimeout:       2 * time.Minute,
		ErrorLog:          slog.NewLogLogger(a.log.Handler(), slog.LevelDebug),
	}
	go func() {
		if err := a.srv.Serve(a.ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			a.serveErr <- err
		}
	}()
	a.startedAt = time.Now()
	a.state.Store("running")
	a.log.Info("wisp started", "url", a.URL(), "state", a.stateDir, "config", a.file.Path)
	return nil
}

func (a *App) listen() error {
	addr := net.JoinHostPort(a.cfg.Server.Host, strconv.Itoa(a.cfg.Server.Port))
	ln, err := net.Listen("tcp", addr)
	if err != nil && a.opts.Desktop && errors.Is(err, syscall.EADDRINUSE) {
		a.log.Warn("port in use, picking a free one", "port", a.cfg.Server.Port)
		ln, err = net.Listen("tcp", net.JoinHostPort(a.cfg.Server.Host, "0"))
	}
	if err != nil {
		return fmt.Errorf("listen on %s: %w", addr, err)
	}
	a.ln = ln
	return nil
}

// Done reports a failure of the HTTP server after Start.
func (a *App) Done() <-chan error { return a.serveErr }

// Port is the port actually listened on.
func (a *App) Port() int { return a.ln.Addr().(*net.TCPAddr).Port }

// URL is the address the API and UI answer on.
func (a *App) URL() string {
	host := a.cfg.Server.Host
	if host == "0.0.0.0" || host == "::" || host == "" {
		host = "127.0.0.1"
	}
	return "http://" + net.JoinHostPort(host, strconv.Itoa(a.Port()))
}

// Connection tells the desktop window where the API is and which token to use.
func (a *App) Connection() Connection {
	token := a.launchToken
	if token == "" {
		token = a.cfg.API.Token
	}
	base := a.URL() // wildcard hosts already become 127.0.0.1
	if api.IsLoopback(a.cfg.Server.Host) {
		base = "http://" + net.JoinHostPort("127.0.0.1", strconv.Itoa(a.Port()))
	}
	c := Connection{BaseURL: base, WSURL: "ws" + base[len("http"):] + "/ws", Token: token}
	if a.cfg.API.Token != "" && a.cfg.Features.ShellEnabled {
		c.TerminalToken = a.cfg.API.TerminalToken // the window is ours: it may run commands
	}
	return c
}

// Stop stops accepting, closes every connection, flushes and closes the store.
func (a *App) Stop() error {
	var err error
	a.stopOnce.Do(func() {
		if a.srv == nil {
			return
		}
		a.state.Store("stopped")
		// Runs first: they end (status and reply saved), which also ends their streams,
		// so the HTTP shutdown does not wait for them.
		a.chat.Stop()
		a.term.Stop() // shell runs end with their process groups; captured answers go out
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if e := a.srv.Shutdown(ctx); e != nil {
			a.log.Warn("http shutdown", "err", e)
			a.srv.Close()
		}
		a.hub.Stop()
		_ = a.emotes.Close()
		if e := a.store.Close(); e != nil {
			err = fmt.Errorf("close store: %w", e)
		}
		a.log.Info("wisp stopped")
	})
	return err
}
