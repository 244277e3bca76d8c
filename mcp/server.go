package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// States of a server.
const (
	Starting = "starting"
	Running  = "running"
	Failed   = "failed"
	Disabled = "disabled"
)

// Tool is one of a server's tools, as the agent offers it.
type Tool struct {
	Server      string
	Name        string // the server's name for it
	Action      string // the agent's: server__tool
	Title       string
	Description string
	InputSchema json.RawMessage
	Annotations *sdk.ToolAnnotations
}

// Status is a server as the API shows it.
type Status struct {
	Name      string
	Spec      Spec
	State     string
	Tools     []Tool
	LastError string
	Stderr    []string
	Restarts  int
	RetryAt   time.Time // while failed: the next attempt
	Since     time.Time
}

// server supervises one declared server: one generation of run() at a time.
type server struct {
	m      *Manager
	name   string
	spec   Spec
	stderr *tail

	mu        sync.Mutex
	moved     chan struct{} // closed (and replaced) when state changes
	state     string
	since     time.Time
	lastError string
	retryAt   time.Time
	restarts  int
	tools     []Tool
	session   *sdk.ClientSession
	progress  map[string]func(Progress)
	nextToken int
	pid       int // of a stdio server's process, while it runs

	ctx    context.Context // cancelled by stop
	cancel context.CancelFunc
	done   chan struct{} // closed once run() has returned, or stop came first
	begin  sync.Once     // start, or a stop before any start: whichever comes first
}

func newServer(m *Manager, name string, spec Spec, restarts int) *server {
	ctx, cancel := context.WithCancel(context.Background())
	return &server{m: m, name: name, spec: spec, stderr: newTail(stderrLines, stderrWidth), restarts: restarts,
		state: Starting, moved: make(chan struct{}), since: m.now(), progress: map[string]func(Progress){},
		ctx: ctx, cancel: cancel, done: make(chan struct{})}
}

// start runs the server until stop (a disabled one only says so). A server stopped
// before it started never starts.
func (s *server) start() {
	s.begin.Do(func() {
		if s.spec.Disabled {
			s.set(Disabled, nil, time.Time{})
			close(s.done)
			return
		}
		go s.run(s.ctx)
	})
}

// stop ends the server and waits for its process to be gone. It may be called
// before start, and more than once.
func (s *server) stop() {
	s.cancel()
	s.begin.Do(func() { close(s.done) }) // never started: nothing to wait for
	<-s.done
}

func (s *server) run(ctx context.Context) {
	defer close(s.done)
	for attempt := 0; ; attempt++ {
		s.set(Starting, nil, time.Time{})
		up := s.m.now()
		err := s.attempt(ctx)
		if ctx.Err() != nil {
			return
		}
		if s.m.now().Sub(up) >= s.m.o.StableAfter {
			attempt = 0 // it ran a good while: start the backoff again
		}
		delay := min(s.m.o.MinBackoff<<min(attempt, 16), s.m.o.MaxBackoff)
		s.set(Failed, err, s.m.now().Add(delay))
		s.m.o.Logger.Info("MCP server failed; retrying", "server", s.name, "err", err, "retryIn", delay)
		t := time.NewTimer(delay)
		select {
		case <-ctx.Done():
			t.Stop()
			return
		case <-t.C:
		}
		s.mu.Lock()
		s.restarts++
		s.mu.Unlock()
	}
}

// attempt connects once and serves until the server goes away or stop ends. The
// connection has a context of its own, cancelled only after the session is closed:
// closing a Streamable HTTP session sends the server a request that ends it there.
func (s *server) attempt(stop context.Context) error {
	ctx, cancel := context.WithCancel(context.WithoutCancel(stop))
	defer cancel()
	transport, proc, err := s.transport()
	if err != nil {
		return err
	}
	if proc != nil {
		s.mu.Lock()
		s.pid = proc.cmd.Process.Pid
		s.mu.Unlock()
		defer func() {
			proc.stop()
			s.mu.Lock()
			s.pid = 0
			s.mu.Unlock()
		}()
		go func() { // the process exiting ends the attempt, even if a child keeps its stdout open
			select {
			case <-proc.exited:
				cancel()
			case <-ctx.Done():
			}
		}()
	}
	// Connecting, initializing and listing the tools must finish in time (a server
	// that hangs there is failed and retried), or end at once on a stop.
	timer := time.AfterFunc(s.m.o.StartTimeout, cancel)
	unstop := context.AfterFunc(stop, cancel)
	session, err := s.client().Connect(ctx, transport, nil)
	if err == nil {
		err = s.listTools(ctx, session)
		if err != nil {
			session.Close()
		}
	}
	timedOut := !timer.Stop()
	unstop()
	if err != nil {
		if timedOut && stop.Err() == nil {
			err = fmt.Errorf("no answer within %s", s.m.o.StartTimeout)
		}
		return s.why(proc, err)
	}
	defer session.Close()
	s.mu.Lock()
	s.session = session
	s.mu.Unlock()
	s.set(Running, nil, time.Time{})
	ended := make(chan error, 1)
	go func() { ended <- session.Wait() }()
	select {
	case err = <-ended:
	case <-ctx.Done():
	case <-stop.Done():
	}
	s.mu.Lock()
	s.session = nil
	s.mu.Unlock()
	if err == nil {
		err = errors.New("the connection closed")
	}
	return s.why(proc, err)
}

// why prefers how the process ended to how the connection did, unless Wisp cut the
// connection for a message over the cap (the process then exits because of that).
func (s *server) why(proc *process, err error) error {
	if proc != nil && proc.out.tooBig() {
		return errMessageTooBig
	}
	if proc != nil {
		// A process whose output ended is usually exiting: give it a moment to say how.
		t := time.NewTimer(200 * time.Millisecond)
		select {
		case <-proc.exited:
		case <-t.C:
		}
		t.Stop()
		if exit := proc.exitError(); exit != nil {
			return exit
		}
	}
	return err
}

func (s *server) transport() (sdk.Transport, *process, error) {
	if s.spec.Transport() == HTTP {
		client := &http.Client{Transport: headers{s.spec.Headers, s.m.o.HTTPTransport}}
		return &sdk.StreamableClientTransport{Endpoint: s.spec.URL, HTTPClient: client, MaxRetries: 1}, nil, nil
	}
	env, path, from := s.m.env(s.spec.Env)
	exe, err := lookPath(s.spec.Command, path, from)
	if err != nil {
		return nil, nil, err
	}
	proc, err := startProcess(s.spec, exe, env, s.stderr, s.m.o.Confine)
	if err != nil {
		return nil, nil, err
	}
	// The cap is lineCap's, which says why it cut a server off (the SDK's does not).
	return &sdk.IOTransport{Reader: proc.out, Writer: proc.stdin, MaxLineLength: -1}, proc, nil
}

func (s *server) client() *sdk.Client {
	return sdk.NewClient(&sdk.Implementation{Name: "wisp", Version: s.m.o.Version}, &sdk.ClientOptions{
		Capabilities: &sdk.ClientCapabilities{},
		ToolListChangedHandler: func(context.Context, *sdk.ToolListChangedRequest) {
			go s.refreshTools()
		},
		ProgressNotificationHandler: func(_ context.Context, r *sdk.ProgressNotificationClientRequest) {
			s.onProgress(r.Params)
		},
	})
}

// listTools reads every page of the server's tools.
func (s *server) listTools(ctx context.Context, session *sdk.ClientSession) error {
	var raw []*sdk.Tool
	for t, err := range session.Tools(ctx, nil) {
		if err != nil {
			return fmt.Errorf("listing its tools: %w", err)
		}
		if len(raw) >= maxTools {
			break
		}
		raw = append(raw, t)
	}
	tools := s.toolsOf(raw)
	s.mu.Lock()
	s.tools = tools
	s.mu.Unlock()
	return nil
}

func (s *server) toolsOf(raw []*sdk.Tool) []Tool {
	plain := make([]string, len(raw))
	for i, t := range raw {
		plain[i] = t.Name
	}
	actions := names(s.name, plain)
	out := make([]Tool, 0, len(raw))
	for i, t := range raw {
		schema, err := json.Marshal(t.InputSchema)
		if err != nil || t.InputSchema == nil || string(schema) == "null" {
			schema = json.RawMessage(`{"type":"object","properties":{}}`)
		}
		out = append(out, Tool{Server: s.name, Name: t.Name, Action: actions[i], Title: t.Title,
			Description: headTail(t.Description, maxDescription), InputSchema: schema, Annotations: t.Annotations})
	}
	return out
}

// refreshTools lists the tools again after the server said they changed.
func (s *server) refreshTools() {
	s.mu.Lock()
	session := s.session
	s.mu.Unlock()
	if session == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), s.m.o.StartTimeout)
	defer cancel()
	if err := s.listTools(ctx, session); err != nil {
		s.m.o.Logger.Warn("cannot list an MCP server's tools again", "server", s.name, "err", err)
		return
	}
	s.m.changed()
}

func (s *server) set(state string, err error, retryAt time.Time) {
	s.mu.Lock()
	if state != s.state {
		s.since = s.m.now()
		close(s.moved)
		s.moved = make(chan struct{})
	}
	s.state, s.retryAt = state, retryAt
	if err != nil {
		s.lastError = err.Error()
	}
	if state != Running {
		s.tools = nil
	}
	s.mu.Unlock()
	s.m.changed()
}

func (s *server) status() Status {
	s.mu.Lock()
	defer s.mu.Unlock()
	return Status{Name: s.name, Spec: s.spec, State: s.state, Tools: append([]Tool(nil), s.tools...),
		LastError: s.lastError, Stderr: s.stderr.Lines(), Restarts: s.restarts, RetryAt: s.retryAt, Since: s.since}
}

// headers adds a server's headers to every request.
type headers struct {
	h    map[string]string
	next http.RoundTripper
}

func (h headers) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	for k, v := range h.h {
		r.Header.Set(k, v)
	}
	next := h.next
	if next == nil {
		next = http.DefaultTransport
	}
	return next.RoundTrip(r)
}
