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
	"github.com/wispapp/wisp/app/proactive"
	"github.com/wispapp/wisp/app/store"
	"github.com/wispapp/wisp/app/ws"
	"github.com/wispapp/wisp/emotes"
	"github.com/wispapp/wisp/internal/clock"
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
	// Clock drives reminders and the autonomy loop (tests use a fake one).
	Clock clock.Clock
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
	opts       Options
	log        *slog.Logger
	stateDir   string
	configPath string
	conf       configState // the config as Wisp runs it (see settings.go)
	fileMu     sync.Mutex  // serialises changes to the config file made through the API

	launchToken string
	models      *models
	actions     *runtime.Registry
	chat        *chat.Service
	proactive   *proactive.Service
	emotes      *emotes.Catalog
	store       *store.Store
	hub         *ws.Hub
	watcher     *config.Watcher
	svc         atomic.Pointer[services] // what a restart replaces
	serveErr    chan error
	draining    sync.WaitGroup // HTTP servers left behind by a restart, shutting down

	life        sync.Mutex   // held by a restart and by Stop
	restartHook func()       // tests: runs in the middle of a restart
	state       atomic.Value // string, one of the status states
	startedAt   atomic.Int64 // Unix ms of the last (re)start
	stopOnce    sync.Once
}

// services are built from the restart-only settings; a restart replaces them.
type services struct {
	cfg      config.Config // the effective settings they were built from
	ln       net.Listener
	srv      *http.Server
	guard    *api.Guard
	term     *terminal.Manager
	termGate *api.TerminalGate
	handler  http.Handler
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
	cfg := a.liveConfig()
	a.models = newModels(cfg.Model, opts.OllamaURL, a.log)
	a.actions = runtime.NewRegistry()
	for _, act := range opts.Actions {
		if err := a.actions.Register(act); err != nil {
			return nil, err
		}
	}
	if err := a.newEmotes(); err != nil {
		return nil, err
	}
	if err := a.checkServable(cfg); err != nil {
		return nil, err
	}
	return a, nil
}

// checkServable refuses settings that would expose the API without a token.
func (a *App) checkServable(cfg config.Config) error {
	if !api.IsLoopback(cfg.Server.Host) && cfg.API.Token == "" && a.launchToken == "" {
		return fmt.Errorf("refusing to listen on %s without an API token: set WISP_API_TOKEN (or api.token in %s), or listen on 127.0.0.1",
			cfg.Server.Host, a.configPath)
	}
	return nil
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
	a.configPath = config.Path(a.opts.Getenv, dir)
	f, err := config.Load(a.configPath)
	if err != nil {
		return err
	}
	cfg, err := a.effective(f.Config)
	if err != nil {
		return err
	}
	a.conf.file, a.conf.live = f, cfg
	return nil
}

// effective is what a process runs with for the file's settings: the file, then the
// environment, then the command line.
func (a *App) effective(file config.Config) (config.Config, error) {
	cfg, err := file.WithEnv(a.opts.Getenv)
	if err != nil {
		return cfg, fmt.Errorf("environment: %w", err)
	}
	if a.opts.Host != "" {
		cfg.Server.Host = a.opts.Host
	}
	if a.opts.Port >= 0 {
		cfg.Server.Port = a.opts.Port
	}
	return cfg, cfg.Validate()
}

func randomToken() string {
	b := make([]byte, 32)
	_, _ = rand.Read(b) // crypto/rand never fails on Linux
	return hex.EncodeToString(b)
}

// Start opens the database, listens, and serves the API and /ws until Stop.
func (a *App) Start(ctx context.Context) error {
	a.state.Store("starting")
	if err := a.start(ctx); err != nil {
		a.state.Store("error")
		return err
	}
	a.startedAt.Store(time.Now().UnixMilli())
	a.state.Store("running")
	s := a.svc.Load()
	a.log.Info("wisp started", "url", a.URL(), "state", a.stateDir, "config", a.configPath)
	go a.serve(s.srv, s.ln)
	return nil
}

func (a *App) start(ctx context.Context) error {
	st, err := store.Open(ctx, filepath.Join(a.stateDir, "wisp.db"))
	if err != nil {
		return err
	}
	a.store = st
	cfg := a.liveConfig()
	ln, err := a.listen(cfg)
	if err != nil {
		st.Close()
		return err
	}
	s := &services{cfg: cfg, ln: ln, srv: a.newHTTPServer()}
	s.guard = a.newGuard(cfg, ln)
	s.term, s.termGate = a.newTerminal(cfg)
	a.svc.Store(s)
	a.hub = ws.New(ws.Options{
		Authorized:      func(tok string) bool { return a.svc.Load().guard.Authorized(tok) },
		Required:        func() bool { return a.svc.Load().guard.Required() },
		CheckOrigin:     func(r *http.Request) bool { return a.svc.Load().guard.OriginAllowed(r) },
		AllowQueryToken: a.opts.Getenv("WISP_ALLOW_WS_QUERY_TOKEN") == "1",
		Status:          a.statusFrame, Journal: journal{st}, Logger: a.log,
		Handlers: a.terminalFrames(),
		// Opening a conversation clears its unread mark (the proactive service is
		// built below, before the listener serves anyone).
		OnActiveConversation: func(_ ws.Client, id string) { a.proactive.MarkRead(id) },
	})
	if err := a.hub.Start(); err != nil {
		ln.Close()
		st.Close()
		return fmt.Errorf("start ws hub: %w", err)
	}
	agent := a.newAgent()
	a.chat = chat.New(chat.Options{
		Store: st, Agent: agent, Hub: chatHub{a.hub}, Logger: a.log.With("component", "chat"),
		CanRespond: a.models.CanRespond, NoTitles: a.opts.NoTitles,
	})
	if err := a.chat.Start(ctx); err != nil {
		a.hub.Stop()
		ln.Close()
		st.Close()
		return fmt.Errorf("start chat: %w", err)
	}
	if err := a.startProactive(agent); err != nil {
		a.chat.Stop()
		a.hub.Stop()
		ln.Close()
		st.Close()
		return err
	}
	s.handler = a.newHandler(s)
	a.watchEmotes()
	a.watchConfig()
	return nil
}

// newGuard builds the Host/Origin/token guard for settings served on ln.
func (a *App) newGuard(cfg config.Config, ln net.Listener) *api.Guard {
	return api.NewGuard(api.GuardOptions{
		Port: ln.Addr().(*net.TCPAddr).Port, BindHost: cfg.Server.Host, ExtraHosts: cfg.Server.AllowedHosts,
		ExtraOrigins: cfg.Server.AllowedOrigins, Tokens: []string{cfg.API.Token, a.launchToken},
	})
}

// newHandler builds the API for one set of services.
func (a *App) newHandler(s *services) http.Handler {
	return api.New(api.Options{
		Guard: s.guard, Hub: a.hub, Status: a.status, UI: a.opts.UI, Logger: a.log,
		Chat: a.chat, Providers: providers{a}, CanRespond: a.models.CanRespond,
		Terminal:  &api.Terminal{Manager: s.term, Gate: s.termGate, ConfigPath: a.configPath},
		Emotes:    &api.Emotes{Catalog: a.emotes, Play: a.playEmote},
		Settings:  settingsAPI{a},
		Proactive: proactiveAPI{Service: a.proactive, a: a},
	}).Handler()
}

// newHTTPServer serves whatever the current services' handler is, so a restart that
// keeps the address swaps the API without touching the listener.
func (a *App) newHTTPServer() *http.Server {
	return &http.Server{
		Handler:           http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { a.svc.Load().handler.ServeHTTP(w, r) }),
		ReadHeaderTimeout: 10 * time.Second,
		IdleTimeout:       2 * time.Minute,
		ErrorLog:          slog.NewLogLogger(a.log.Handler(), slog.LevelDebug),
	}
}

func (a *App) serve(srv *http.Server, ln net.Listener) {
	if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
		select {
		case a.serveErr <- err:
		default: // one failure is enough to stop
		}
	}
}

func (a *App) listen(cfg config.Config) (net.Listener, error) {
	addr := net.JoinHostPort(cfg.Server.Host, strconv.Itoa(cfg.Server.Port))
	ln, err := net.Listen("tcp", addr)
	if err != nil && a.opts.Desktop && errors.Is(err, syscall.EADDRINUSE) {
		a.log.Warn("port in use, picking a free one", "port", cfg.Server.Port)
		ln, err = net.Listen("tcp", net.JoinHostPort(cfg.Server.Host, "0"))
	}
	if err != nil {
		return nil, fmt.Errorf("listen on %s: %w", addr, err)
	}
	return ln, nil
}

// Done reports a failure of the HTTP server after Start.
func (a *App) Done() <-chan error { return a.serveErr }

// Port is the port actually listened on.
func (a *App) Port() int { return a.svc.Load().ln.Addr().(*net.TCPAddr).Port }

// URL is the address the API and UI answer on.
func (a *App) URL() string {
	s := a.svc.Load()
	host := s.cfg.Server.Host
	if host == "0.0.0.0" || host == "::" || host == "" {
		host = "127.0.0.1"
	}
	return "http://" + net.JoinHostPort(host, strconv.Itoa(a.Port()))
}

// Connection tells the desktop window where the API is and which token to use.
func (a *App) Connection() Connection {
	cfg := a.svc.Load().cfg
	token := a.launchToken
	if token == "" {
		token = cfg.API.Token
	}
	base := a.URL() // wildcard hosts already become 127.0.0.1
	if api.IsLoopback(cfg.Server.Host) {
		base = "http://" + net.JoinHostPort("127.0.0.1", strconv.Itoa(a.Port()))
	}
	c := Connection{BaseURL: base, WSURL: "ws" + base[len("http"):] + "/ws", Token: token}
	if cfg.API.Token != "" && cfg.Features.ShellEnabled {
		c.TerminalToken = cfg.API.TerminalToken // the window is ours: it may run commands
	}
	return c
}

// Stop stops accepting, closes every connection, flushes and closes the store. It
// waits for a restart in progress.
func (a *App) Stop() error {
	var err error
	a.stopOnce.Do(func() {
		a.life.Lock()
		defer a.life.Unlock()
		s := a.svc.Load()
		if s == nil || s.handler == nil {
			return
		}
		a.state.Store("stopped")
		if a.watcher != nil {
			_ = a.watcher.Close()
		}
		// Runs first: they end (status and reply saved), which also ends their streams,
		// so the HTTP shutdown does not wait for them.
		a.chat.Stop()
		s.term.Stop() // shell runs end with their process groups; captured answers go out
		// Then the proactive loops (a tick's model call is cancelled); notices about
		// the runs just ended are saved.
		a.proactive.Stop()
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if e := s.srv.Shutdown(ctx); e != nil {
			a.log.Warn("http shutdown", "err", e)
			s.srv.Close()
		}
		a.draining.Wait()
		a.hub.Stop()
		_ = a.emotes.Close()
		if e := a.store.Close(); e != nil {
			err = fmt.Errorf("close store: %w", e)
		}
		a.log.Info("wisp stopped")
	})
	return err
}
