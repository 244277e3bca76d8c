// Package mcp runs the Model Context Protocol servers the user declared and calls
// their tools, on the official Go SDK: stdio servers as processes of their own
// (never through a shell), Streamable HTTP servers by URL. Each server is
// supervised: started in the background, restarted with backoff when it fails or
// exits, its stderr's tail kept, its tool list followed. It knows nothing of the
// agent or of consent: app/mcptool makes the tools actions behind approvals.
package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"os"
	"slices"
	"strings"
	"sync"
	"time"
)

// Bounds on what a server may send.
const (
	stderrLines        = 50
	stderrWidth        = 500
	maxTools           = 256
	maxDescription     = 4 << 10
	maxProgressMessage = 500
	maxMessageBytes    = 16 << 20
)

// ErrUnknown is returned for a server or tool nobody declared.
var ErrUnknown = errors.New("no such MCP server or tool")

// Options tune a Manager; zero values take the defaults.
type Options struct {
	Logger *slog.Logger
	// Env is the environment of stdio servers before their own env (default: this
	// process's, without the variables in Strip).
	Env []string
	// Strip are variables never passed on to a server unless its own env sets them:
	// Wisp's tokens and keys.
	Strip []string
	// PATH, when set, gives the PATH stdio servers get and their command is looked
	// for in (Env's is replaced), and where it came from ("login shell /bin/zsh"),
	// which a command not found names. It may wait a moment: the login shell's PATH
	// is read in the background, bounded in time. A server's own env PATH wins.
	PATH func() (path, from string)
	// Confine, when set, starts every stdio server confined: it calls start (which
	// starts the process) so that the process begins confined, and returns release,
	// called once the process has been waited for. A server it refuses fails to start.
	Confine func(start func() error) (release func(), err error)
	// OnChange is called (never under a lock) when a server's state or tools change.
	OnChange func()
	// MinBackoff and MaxBackoff bound the wait before a failed server is started
	// again (1 s and 60 s); a server that ran StableAfter (30 s) starts over at the
	// minimum.
	MinBackoff, MaxBackoff, StableAfter time.Duration
	// StartTimeout bounds connecting, initializing and listing tools (30 s).
	StartTimeout time.Duration
	// HTTPTransport carries Streamable HTTP requests (http.DefaultTransport).
	HTTPTransport http.RoundTripper
	// Version is Wisp's, told to servers.
	Version string
	Now     func() time.Time
}

// Manager runs the declared servers. Nothing calls out of it (OnChange, a server's
// start or stop) while mu is held: it is taken only to read or swap the map, so
// OnChange may read the manager.
type Manager struct {
	o Options
	// changing serialises what replaces servers (Apply, Restart, Close): a server is
	// stopped and its successor started by one of them at a time.
	changing sync.Mutex
	mu       sync.Mutex
	servers  map[string]*server
	closed   bool
}

// New returns a Manager with no servers.
func New(o Options) *Manager {
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
	if o.Env == nil {
		o.Env = os.Environ()
	}
	if o.OnChange == nil {
		o.OnChange = func() {}
	}
	if o.MinBackoff <= 0 {
		o.MinBackoff = time.Second
	}
	if o.MaxBackoff < o.MinBackoff {
		o.MaxBackoff = max(60*time.Second, o.MinBackoff)
	}
	if o.StableAfter <= 0 {
		o.StableAfter = 30 * time.Second
	}
	if o.StartTimeout <= 0 {
		o.StartTimeout = 30 * time.Second
	}
	if o.Version == "" {
		o.Version = "dev"
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	return &Manager{o: o, servers: map[string]*server{}}
}

func (m *Manager) now() time.Time { return m.o.Now() }
func (m *Manager) changed()       { m.o.OnChange() }

// Apply makes the running servers those of specs: new ones start, removed ones stop,
// changed ones restart; the others go on untouched. It does not wait for a server
// to start (a slow one never holds Wisp up), only for removed ones to stop.
func (m *Manager) Apply(specs map[string]Spec) {
	m.changing.Lock()
	defer m.changing.Unlock()
	m.mu.Lock()
	if m.closed {
		m.mu.Unlock()
		return
	}
	var stopping, starting []*server
	for name, s := range m.servers {
		if spec, ok := specs[name]; !ok || !spec.Equal(s.spec) {
			stopping = append(stopping, s)
			delete(m.servers, name)
		}
	}
	for name, spec := range specs {
		if _, ok := m.servers[name]; !ok {
			s := newServer(m, name, spec, 0)
			m.servers[name] = s
			starting = append(starting, s)
		}
	}
	m.mu.Unlock()
	stopAll(stopping)
	for _, s := range starting {
		s.start()
	}
	m.changed()
}

func stopAll(servers []*server) {
	var wg sync.WaitGroup
	for _, s := range servers {
		wg.Go(s.stop)
	}
	wg.Wait()
}

// Restart stops a server and starts it again now (a failed one does not wait for
// its next retry). Restarts of a server happen one after the other: each stops the
// one before it.
func (m *Manager) Restart(name string) (Status, error) {
	m.changing.Lock()
	defer m.changing.Unlock()
	m.mu.Lock()
	old, ok := m.servers[name]
	if !ok || m.closed {
		m.mu.Unlock()
		return Status{}, ErrUnknown
	}
	old.mu.Lock()
	restarts := old.restarts + 1
	old.mu.Unlock()
	s := newServer(m, name, old.spec, restarts)
	s.stderr = old.stderr // what it said before is still worth reading
	m.servers[name] = s
	m.mu.Unlock()
	old.stop()
	s.start()
	m.changed()
	return s.status(), nil
}

// Servers lists every declared server, by name.
func (m *Manager) Servers() []Status {
	m.mu.Lock()
	list := make([]*server, 0, len(m.servers))
	for _, s := range m.servers {
		list = append(list, s)
	}
	m.mu.Unlock()
	out := make([]Status, len(list))
	for i, s := range list {
		out[i] = s.status()
	}
	slices.SortFunc(out, func(a, b Status) int { return strings.Compare(a.Name, b.Name) })
	return out
}

// Server returns one server's status.
func (m *Manager) Server(name string) (Status, bool) {
	m.mu.Lock()
	s, ok := m.servers[name]
	m.mu.Unlock()
	if !ok {
		return Status{}, false
	}
	return s.status(), true
}

// Tools lists the tools of every running server, by action name.
func (m *Manager) Tools() []Tool {
	var out []Tool
	for _, st := range m.Servers() {
		out = append(out, st.Tools...)
	}
	slices.SortFunc(out, func(a, b Tool) int { return strings.Compare(a.Action, b.Action) })
	return out
}

// Call runs a server's tool. A server that is not running fails the call at once;
// progress (if set) hears the tool's progress notifications.
func (m *Manager) Call(ctx context.Context, server, tool string, args json.RawMessage, progress func(Progress)) (Result, error) {
	m.mu.Lock()
	s, ok := m.servers[server]
	m.mu.Unlock()
	if !ok {
		return Result{}, ErrUnknown
	}
	return s.call(ctx, tool, args, progress)
}

// Close stops every server and waits for their processes to be gone.
func (m *Manager) Close() {
	m.changing.Lock()
	defer m.changing.Unlock()
	m.mu.Lock()
	m.closed = true
	list := make([]*server, 0, len(m.servers))
	for _, s := range m.servers {
		list = append(list, s)
	}
	m.servers = map[string]*server{}
	m.mu.Unlock()
	stopAll(list)
}

// Where a server's PATH came from, besides what Options.PATH says.
const (
	pathInherited = "inherited"
	pathOwn       = "the server's env"
)

// env is a stdio server's environment: the base with Options.PATH's PATH, without
// Strip, then its own; with the PATH its command is looked for in, and whence.
func (m *Manager) env(own map[string]string) (env []string, path, from string) {
	base := m.o.Env
	from = pathInherited
	if m.o.PATH != nil {
		path, from = m.o.PATH()
		base = append(slices.DeleteFunc(slices.Clone(base), isPATH), "PATH="+path)
	} else if i := slices.IndexFunc(base, isPATH); i >= 0 {
		path = base[i][len("PATH="):]
	}
	if p, ok := own["PATH"]; ok {
		path, from = p, pathOwn
	}
	out := make([]string, 0, len(base)+len(own))
	for _, kv := range base {
		k, _, _ := strings.Cut(kv, "=")
		if _, mine := own[k]; mine || slices.Contains(m.o.Strip, k) {
			continue
		}
		out = append(out, kv)
	}
	for k, v := range own {
		out = append(out, k+"="+v)
	}
	return out, path, from
}

func isPATH(kv string) bool { return strings.HasPrefix(kv, "PATH=") }
