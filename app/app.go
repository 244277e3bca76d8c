// Package app is Wisp's composition root: App owns every service (the settings, the
// store, the /ws hub, chat, proactive, the terminal, the HTTP API), starts them in
// order on a stack and stops them in reverse, and fans out the frames every producer
// publishes to its one wire.Events (events.go). The config file is app/settings'; the
// Wails window is app/desktop's, which drives App. See docs/architecture.md.
//
// Only this package knows about HTTP, WebSocket and SQLite together.
package app

import (
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"github.com/wispapp/wisp/app/settings"
	"io/fs"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/wispapp/wisp/app/api"
	"github.com/wispapp/wisp/app/approval"
	"github.com/wispapp/wisp/app/archive"
	"github.com/wispapp/wisp/app/attach"
	"github.com/wispapp/wisp/app/avatar"
	"github.com/wispapp/wisp/app/chat"
	"github.com/wispapp/wisp/app/config"
	"github.com/wispapp/wisp/app/docs"
	"github.com/wispapp/wisp/app/files"
	"github.com/wispapp/wisp/app/memory"
	"github.com/wispapp/wisp/app/proactive"
	"github.com/wispapp/wisp/app/store"
	"github.com/wispapp/wisp/app/tasks"
	"github.com/wispapp/wisp/app/usage"
	"github.com/wispapp/wisp/app/wire"
	"github.com/wispapp/wisp/app/ws"
	"github.com/wispapp/wisp/confine"
	"github.com/wispapp/wisp/emotes"
	"github.com/wispapp/wisp/internal/clock"
	"github.com/wispapp/wisp/internal/fault"
	"github.com/wispapp/wisp/internal/instance"
	"github.com/wispapp/wisp/loginpath"
	"github.com/wispapp/wisp/mcp"
	"github.com/wispapp/wisp/runtime"
	"github.com/wispapp/wisp/runtime/llm"
	"github.com/wispapp/wisp/secrets"
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
	// KeepToken (`wisp serve`) makes the API need a token even on loopback: unless
	// one is configured (WISP_API_TOKEN, api.token), Wisp makes one on its first
	// start and keeps it in <state>/api-token for the next ones.
	KeepToken bool
	// Version is Wisp's, as MCP servers are told.
	Version string
	// Keyring opens the keyring that keeps the secrets of the config file at the
	// path it is given (main: the Secret Service). Nil: the file keeps them.
	Keyring func(configPath string) secrets.Keyring
	// Confine forces a fallback of the agent's confinement (tests): confine.Off as
	// on a kernel without Landlock, confine.Paths as on one without network rules.
	Confine confine.Mode
	// LoginPATH gives the PATH of MCP servers and terminal runs: the login shell's
	// (main: LoginPATH(log), app/loginpath.go; New starts it). It may wait, bounded.
	// Nil: Wisp's own.
	LoginPATH func() loginpath.Result
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
	settings *settings.Settings // the config file as Wisp runs it (app/settings)
	lock     *instance.Lock     // the state folder's: one Wisp per folder (instance.go)

	own      ownTokens // the tokens Wisp makes for itself (token.go)
	models   *models
	windows  windows // the providers' context windows (contextwindow.go)
	actions  *runtime.Registry
	confiner *confine.Confiner // the agent's processes (confine.go)
	emotes   *emotes.Catalog
	avatar   *avatar.Store            // the user's VRM character (avatar.go)
	face     *expressions             // the avatar's expressions (expressions.go)
	events   *fanout                  // the one wire.Events every producer publishes to
	core     *core                    // what Start assembles on the store
	svc      atomic.Pointer[services] // what a restart replaces
	life     life
}

// core are the services assembled on the store, each serving its own API.
type core struct {
	store     *store.Store
	hub       *ws.Hub
	chat      *chat.Service
	archive   *archive.Service
	approvals *approval.Service
	proactive *proactive.Service
	mcp       *mcp.Manager
	memory    *memory.Service
	usage     *usage.Service
	attach    *attach.Service
	docs      *docs.Service
	files     *files.Service
	tasks     *tasks.Service
}

// life is where App is in its life: what Start started, the state, the restarts.
type life struct {
	running     lifecycle    // what Start started, for Stop to stop newest first
	mu          sync.Mutex   // held by a restart and by Stop
	restartHook func()       // tests: runs in the middle of a restart
	state       atomic.Value // string, one of the status states
	startedAt   atomic.Int64 // Unix ms of the last (re)start
	serveErr    chan error
	draining    sync.WaitGroup // what a restart left running: old HTTP servers shutting down, MCP servers restarting
	stopOnce    sync.Once
	stopErr     error // from closing the store
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
	if opts.OllamaURL == "" {
		opts.OllamaURL = opts.Getenv("WISP_OLLAMA_URL")
	}
	a := &App{opts: opts, log: opts.Logger, events: &fanout{log: opts.Logger}}
	a.life.serveErr = make(chan error, 1)
	a.life.running = lifecycle{log: opts.Logger}
	a.life.state.Store("not_started")
	if err := a.loadConfig(); err != nil {
		return nil, err
	}
	if opts.Desktop {
		a.own.launch = randomToken()
	} else if opts.KeepToken {
		a.own.file = &tokenFile{path: filepath.Join(a.stateDir, tokenFileName), log: a.log}
	}
	cfg := a.settings.Live()
	a.models = newModels(cfg.Model, opts.OllamaURL, a.log)
	a.windows.ask = llm.DiscoverModel
	if err := a.ownSettings(); err != nil {
		return nil, err
	}
	a.newConfiner()
	a.actions = runtime.NewRegistry()
	for _, act := range opts.Actions {
		if err := a.actions.Register(act); err != nil {
			return nil, err
		}
	}
	if err := a.newEmotes(); err != nil {
		return nil, err
	}
	a.newAvatar()
	if err := a.newExpressions(); err != nil {
		return nil, err
	}
	if err := a.checkServable(cfg); err != nil {
		return nil, err
	}
	a.startLoginPATH()
	return a, nil
}

// checkServable refuses settings that would listen beyond loopback without a
// configured token (or the desktop's), or turn shell access on with no API token at
// all: any local process or user could then run commands as Wisp's user. Wisp's own
// token (the desktop's, or the one `wisp serve` keeps, which serves loopback only)
// counts without being read: the kept one is read or made only once the state
// folder's lock is held (newGuard), so a second Wisp refused there never touches it.
func (a *App) checkServable(cfg config.Config) error {
	own := a.own.launch != "" || (a.own.file != nil && cfg.API.Token == "")
	if !api.IsLoopback(cfg.Server.Host) && cfg.API.Token == "" && a.own.launch == "" {
		return fmt.Errorf("refusing to listen on %s without an API token: set WISP_API_TOKEN (or api.token in %s), or listen on 127.0.0.1",
			cfg.Server.Host, a.settings.Path())
	}
	if cfg.Features.ShellEnabled && cfg.API.Token == "" && !own {
		return fault.Invalid.Errorf("shell access needs an API token: without one, any local process or user that "+
			"reaches Wisp's port could run commands as you; set WISP_API_TOKEN (or api.token in %s), or leave shell access off",
			a.settings.Path())
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
	path := config.Path(a.opts.Getenv, dir)
	var kr secrets.Keyring
	if a.opts.Keyring != nil {
		kr = a.opts.Keyring(path)
	}
	s, err := settings.New(settings.Options{
		Path: path, Getenv: a.opts.Getenv, Host: a.opts.Host, Port: a.opts.Port, Keyring: kr,
		Events: a.events, Status: func() wire.Frame { return a.statusFrame(true) },
		Autostart: a.autostart(), Logger: a.log,
	})
	if err != nil {
		return err
	}
	a.settings = s
	return nil
}

func randomToken() string { return hex.EncodeToString(randomBytes(32)) }

// Start opens the database, starts every service, listens, and serves the API and
// /ws until Stop. If any part fails, what had started is stopped again.
func (a *App) Start(ctx context.Context) error {
	a.life.state.Store("starting")
	if err := a.start(ctx); err != nil {
		a.life.running.stop()
		a.life.state.Store("error")
		return err
	}
	a.life.startedAt.Store(time.Now().UnixMilli())
	a.life.state.Store("running")
	a.announce()
	s := a.svc.Load()
	a.log.Info("wisp started", "url", a.URL(), "state", a.stateDir, "config", a.settings.Path())
	go a.serve(s.srv, s.ln)
	return nil
}

// start takes the state folder's lock, then starts the services in an order whose
// reverse is the right way to stop: the config watcher and emotes first, then chat
// (its runs end, with their streams), the terminal (its runs end), proactive (notices
// about those runs are saved), the HTTP server, the hub, the settings' queue, the
// store, and the lock last.
func (a *App) start(ctx context.Context) error {
	if err := a.lockStateFolder(); err != nil {
		return err
	}
	// Closed after the terminal and the MCP servers, whose processes it confines.
	a.life.running.defer_("confinement", a.confiner.Close)
	st, err := store.Open(ctx, filepath.Join(a.stateDir, "wisp.db"))
	if err != nil {
		return err
	}
	a.life.running.defer_("store", func() { a.closeStore(st) })
	c, err := a.assemble(st)
	if err != nil {
		return err
	}
	a.core = c
	// Changes are applied from now on, until the API and the watcher are gone.
	if err := a.life.running.start(ctx, "settings", a.settings); err != nil {
		return err
	}
	if err := a.life.running.start(ctx, "ws hub", c.hub); err != nil {
		return err
	}
	if err := a.listen(a.settings.Live()); err != nil {
		return err
	}
	a.life.running.defer_("http server", a.stopHTTP)
	if err := a.life.running.start(ctx, "proactive", c.proactive); err != nil {
		return err
	}
	a.life.running.defer_("terminal", func() { a.svc.Load().term.Stop() })
	// The MCP servers stop after chat: the runs calling their tools end first.
	c.mcp.Apply(specsOf(a.settings.Live().MCPServers)) // in the background: Wisp's start never waits
	a.life.running.defer_("mcp servers", c.mcp.Close)
	a.life.running.defer_("context windows", a.windows.stop)
	// Documents being read stop after the runs that wait for them.
	a.life.running.defer_("documents", c.docs.Close)
	if err := a.life.running.start(ctx, "chat", c.chat); err != nil {
		return err
	}
	// Decisions stop before the runs do: a run told to go on as it is stopped could
	// start its command.
	a.life.running.defer_("approvals", c.approvals.Close)
	// Paused runs are adopted now: decisions made just before the last process ended
	// take effect.
	if err := c.approvals.HandOver(ctx); err != nil {
		return fmt.Errorf("hand over decisions made before the restart: %w", err)
	}
	// Tasks start their runs in chat, once the runs paused before are adopted.
	if err := a.life.running.start(ctx, "tasks", c.tasks); err != nil {
		return err
	}
	// Off the start's path: the first collection runs in the collector's goroutine.
	if err := a.life.running.start(ctx, "attachments gc", &collector{s: c.attach, log: a.log, first: collectFirst, every: collectEvery}); err != nil {
		return err
	}
	a.life.running.startOptional(ctx, "emote folder watch", a.emotes, "emote folder not watched: new packs need a restart")
	watcher := config.NewWatcher(a.settings.Path(), config.WatchOptions{
		// The settings read the file again in their queue's turn (Reload).
		OnChange: func(*config.File, error) { a.settings.Reload() },
		OnError:  func(err error) { a.log.Warn("config watch", "err", err) },
	})
	a.life.running.startOptional(ctx, "config watch", watcher, "config file changes will not be noticed")
	a.settings.Reload() // whatever changed since it was loaded
	return nil
}

// assemble builds the services on the store in dependency order and connects the
// ones that talk both ways: the hub tells proactive which conversation a client
// opened, the terminal's runs are followed by proactive, a decision resumes a run.
// Nothing runs yet.
func (a *App) assemble(st *store.Store) (*core, error) {
	c := &core{store: st}
	c.hub = ws.New(ws.Options{
		Gate: currentGuard{&a.svc}, AllowQueryToken: a.opts.Getenv("WISP_ALLOW_WS_QUERY_TOKEN") == "1",
		Status: a.statusFrame, Journal: journal{st}, Logger: a.log,
	})
	a.events.hub = c.hub
	c.memory = a.newMemory(st)
	agent := a.newAgent(c.memory)
	c.usage = a.newUsage(st)
	attachments, err := a.newAttachments(st)
	if err != nil {
		return nil, err
	}
	c.attach = attachments
	c.docs = docs.New(docs.Options{Store: st, BlobPath: attachments.BlobPath, Log: a.log.With("component", "documents")})
	c.chat = chat.New(chat.Options{
		Store: st, Agent: agent, Events: a.events, Logger: a.log.With("component", "chat"),
		CanRespond: a.models.CanRespond, NoTitles: a.opts.NoTitles,
		RecordUsage: func(ctx context.Context, e chat.UsageEntry) { c.usage.Record(ctx, usage.Entry(e)) },
		Window:      a.contextWindow, SummarizeAt: a.summarizeAt, Counter: tokenCounter,
		Attachments: attachments, Documents: c.docs, Vision: a.vision, ImageLimits: a.imageLimits,
		Speak: a.speaks, Replied: a.face.replied,
	})
	c.archive = archive.New(archive.Options{Store: st, Events: a.events, Logger: a.log.With("component", "archive"),
		AgentName: c.chat.AgentName, Blobs: attachments, TempDir: a.importsDir()})
	c.proactive = proactive.New(proactive.Options{
		Store: st, Events: a.events, Presence: c.hub, Agent: agent, Settings: a.proactiveSettings,
		CanRespond: a.models.CanRespond, Busy: c.chat.Busy, Clock: a.opts.Clock,
		Logger:      a.log.With("component", "proactive"),
		RecordUsage: c.usage.RecordThought,
	})
	c.approvals = a.newApprovals(st, c.chat)
	c.mcp = a.newMCP(c.approvals)
	if err := a.ownServiceSettings(c); err != nil {
		return nil, err
	}
	if err := a.actions.Register(c.proactive.ReminderAction()); err != nil {
		return nil, err
	}
	if err := a.actions.Register(a.shellAction(c.approvals)); err != nil {
		return nil, err
	}
	if err := a.registerMemoryActions(c); err != nil {
		return nil, err
	}
	if err := a.registerFiles(c); err != nil {
		return nil, err
	}
	if err := a.registerWebActions(c); err != nil {
		return nil, err
	}
	if err := a.registerTasks(c); err != nil {
		return nil, err
	}
	a.events.terminal = append(a.events.terminal, c.proactive.TerminalOutput)
	// Opening a conversation clears its unread mark.
	c.hub.OnActiveConversation(func(_ ws.Client, id string) { c.proactive.MarkRead(id) })
	c.hub.HandleFrame(wire.TypeTerminalInput, a.terminalInput)
	c.hub.HandleFrame(wire.TypeTerminalResize, a.terminalResize)
	return c, nil
}

// currentGuard is the hub's gate: the guard of the services running now, which a
// restart replaces.
type currentGuard struct{ svc *atomic.Pointer[services] }

func (g currentGuard) Required() bool               { return g.svc.Load().guard.Required() }
func (g currentGuard) Authorized(token string) bool { return g.svc.Load().guard.Authorized(token) }
func (g currentGuard) OriginAllowed(r *http.Request) bool {
	return g.svc.Load().guard.OriginAllowed(r)
}

// newGuard builds the Host/Origin/token guard for settings served on ln. It fails
// rather than build a guard without the token Wisp keeps for itself.
func (a *App) newGuard(cfg config.Config, ln net.Listener) (*api.Guard, error) {
	own, err := a.ownToken(cfg)
	if err != nil {
		return nil, err
	}
	origins := cfg.Server.AllowedOrigins
	if a.opts.Desktop {
		origins = slices.Concat(origins, devWindowOrigins())
	}
	return api.NewGuard(api.GuardOptions{
		Port: ln.Addr().(*net.TCPAddr).Port, BindHost: cfg.Server.Host, ExtraHosts: cfg.Server.AllowedHosts,
		ExtraOrigins: origins, Tokens: []string{cfg.API.Token, own}, Webview: a.opts.Desktop,
	}), nil
}

// The services serve their routes themselves.
var (
	_ api.Hub           = (*ws.Hub)(nil)
	_ api.Conversations = (*chat.Service)(nil)
	_ api.Archive       = (*archive.Service)(nil)
	_ api.Approvals     = (*approval.Service)(nil)
	_ api.Proactive     = (*proactive.Service)(nil)
	_ api.Settings      = (*settings.Settings)(nil)
	_ api.Chat          = (*chat.Service)(nil)
	_ api.Usage         = (*usage.Service)(nil)
	_ api.Context       = (*chat.Service)(nil)
)

// newHandler builds the API for one set of services.
func (a *App) newHandler(s *services) http.Handler {
	return api.New(api.Options{
		Guard: s.guard, Hub: a.core.hub, Status: a.status, UI: a.opts.UI, Logger: a.log,
		Chat: a.core.chat, Conversations: a.core.chat, Context: a.core.chat, CanRespond: a.models.CanRespond,
		Providers:   providers{models: a.models, settings: a.settings, getenv: a.opts.Getenv, vision: a.vision},
		Terminal:    &api.Terminal{Manager: s.term, Gate: s.termGate, ConfigPath: a.settings.Path()},
		Emotes:      emoteAPI{a.emotes, a.playEmote},
		Settings:    a.settings,
		Restarter:   a,
		Proactive:   a.core.proactive,
		Approvals:   a.core.approvals,
		MCP:         mcpAPI{mcp: a.core.mcp, settings: a.settings},
		Archive:     a.core.archive,
		Memory:      a.core.memory,
		Usage:       a.core.usage,
		Attachments: attachAPI{a.core.attach, a.core.docs},
		Voice:       spokenVoice{a.voiceService()},
		Avatar:      a.avatarAPI(),
		Expressions: a.face,
		Edits:       a.core.files,
		Tasks:       a.core.tasks,
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
		case a.life.serveErr <- err:
		default: // one failure is enough to stop
		}
	}
}

// listen listens on the configured address and builds the services that depend on
// the settings (the guard, the terminal, the API handler) around it.
func (a *App) listen(cfg config.Config) error {
	ln, err := a.listenOn(cfg)
	if err != nil {
		return err
	}
	guard, err := a.newGuard(cfg, ln)
	if err != nil {
		ln.Close()
		return err
	}
	s := &services{cfg: cfg, ln: ln, srv: a.newHTTPServer(), guard: guard}
	a.setConfinement(cfg, ln.Addr().(*net.TCPAddr).Port)
	s.term, s.termGate = a.newTerminal(cfg)
	s.handler = a.newHandler(s)
	a.svc.Store(s)
	return nil
}

// stopHTTP shuts the server down once its requests are done (closing its listener
// even if it never served), and waits for servers a restart left behind.
func (a *App) stopHTTP() {
	s := a.svc.Load()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := s.srv.Shutdown(ctx); err != nil {
		a.log.Warn("http shutdown", "err", err)
		s.srv.Close()
	}
	_ = s.ln.Close()
	a.life.draining.Wait()
}

func (a *App) closeStore(st *store.Store) {
	if err := st.Close(); err != nil {
		a.life.stopErr = fmt.Errorf("close store: %w", err)
	}
}

func (a *App) listenOn(cfg config.Config) (net.Listener, error) {
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
func (a *App) Done() <-chan error { return a.life.serveErr }

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
	token := a.own.launch
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

// Stop ends the runs (their status and replies saved), stops every service in the
// reverse order of Start, and closes the store. It waits for a restart in progress.
func (a *App) Stop() error {
	a.life.stopOnce.Do(func() {
		a.life.mu.Lock()
		defer a.life.mu.Unlock()
		if a.life.state.Load() != "running" {
			return // never started, or a failed start already stopped what it started
		}
		a.life.state.Store("stopped")
		a.life.running.stop()
		a.log.Info("wisp stopped")
	})
	return a.life.stopErr
}

// Logger is where App logs.
func (a *App) Logger() *slog.Logger { return a.log }

// StateDir is the state folder App runs on.
func (a *App) StateDir() string { return a.stateDir }
