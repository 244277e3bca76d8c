package terminal

import (
	"cmp"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"
)

// Options configure a Manager. Zero values take the documented defaults.
type Options struct {
	// Shell runs each command as Shell -c <command>; default $SHELL, else /bin/sh.
	Shell string
	// Dir is the working directory; default the user's home. "~/" is expanded.
	Dir string
	// Env is the environment of every run; default Wisp's own. The variables of
	// Secrets are left out of it, and TERM=xterm-256color is always set.
	Env []string
	// Secrets are the variables no run inherits (Wisp's tokens and keys); default
	// WISP_API_TOKEN and WISP_TERMINAL_RUN_TOKEN.
	Secrets []string
	// PATH, when set, gives the PATH of every run, the agent's and the user's, in
	// place of Env's: the user's login shell's, so that a run finds what the user's
	// own terminal finds. It is asked at each run's start and may wait a moment (the
	// login shell's PATH is read in the background, bounded in time).
	PATH func() string
	// Confine, when set, starts the agent's runs (Spec.Owner "") confined: it calls
	// start (which starts the shell) so that the process begins confined, and returns
	// release, called once the shell has been waited for. A run it refuses fails to
	// start. The user's own runs are never confined.
	Confine       func(start func() error) (release func(), err error)
	MaxConcurrent int           // runs at once; default 2
	MaxDuration   time.Duration // per run; default 5 minutes
	KillGrace     time.Duration // SIGTERM → SIGKILL; default 1 s
	// DrainTimeout is how long the output of an ended command may stay quiet before
	// it is closed (an escaped process may still hold the terminal); default 1 s.
	// DrainLimit bounds the whole wait; default 15 s.
	DrainTimeout time.Duration
	DrainLimit   time.Duration
	Scrollback   int // bytes of output kept per run; default 256 KiB
	CaptureLimit int // bytes kept per captured stream; default 128 KiB
	KeepFinished int // finished runs listed; default 20
	// Sink receives every event of a run in order, on the run's own delivering
	// goroutine, with no lock held. It may take its time: meanwhile the run keeps
	// reading output until 128 KiB wait for the sink, then the program pauses.
	Sink func(Event)
	// Ready is flow control: it reports whether the viewers of owner's runs ("" for
	// the agent's) have taken most of what was sent and, when they have not, a channel
	// closed once that may have changed (nil: only FlowStall ends the wait). While they
	// are behind a run's output waits, up to FlowStall (default 5 s), and the program
	// pauses as it would behind a slow terminal; a viewer that stays behind longer is
	// no longer waited for. Nil: output never waits for viewers.
	Ready     func(owner string) (ready bool, changed <-chan struct{})
	FlowStall time.Duration
	Logger    *slog.Logger
}

func (o *Options) setDefaults() {
	if o.Shell == "" {
		o.Shell = defaultShell()
	}
	if o.Dir == "" || o.Dir == "~" {
		o.Dir, _ = os.UserHomeDir()
	} else if rest, ok := strings.CutPrefix(o.Dir, "~/"); ok {
		if home, err := os.UserHomeDir(); err == nil {
			o.Dir = filepath.Join(home, rest)
		}
	}
	if o.Env == nil {
		o.Env = os.Environ()
	}
	if o.Secrets == nil {
		o.Secrets = []string{"WISP_API_TOKEN", "WISP_TERMINAL_RUN_TOKEN"}
	}
	o.Env = runEnv(o.Env, o.Secrets)
	o.MaxConcurrent = cmp.Or(o.MaxConcurrent, 2)
	o.MaxDuration = cmp.Or(o.MaxDuration, 5*time.Minute)
	o.KillGrace = cmp.Or(o.KillGrace, time.Second)
	o.DrainTimeout = cmp.Or(o.DrainTimeout, time.Second)
	o.DrainLimit = cmp.Or(o.DrainLimit, 15*time.Second)
	o.Scrollback = cmp.Or(o.Scrollback, 256<<10)
	o.CaptureLimit = cmp.Or(o.CaptureLimit, 128<<10)
	o.KeepFinished = cmp.Or(o.KeepFinished, 20)
	o.FlowStall = cmp.Or(o.FlowStall, 5*time.Second)
	if o.Sink == nil {
		o.Sink = func(Event) {}
	}
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
}

// defaultShell is the user's login shell if it is an absolute path that exists, else
// Bash where there is one (the agent's grants hold only under Bash), else /bin/sh.
func defaultShell() string {
	for _, sh := range []string{os.Getenv("SHELL"), "/bin/bash"} {
		if !filepath.IsAbs(sh) {
			continue
		}
		if st, err := os.Stat(sh); err == nil && !st.IsDir() {
			return sh
		}
	}
	return "/bin/sh"
}

// withPATH is env with its PATH replaced by path.
func withPATH(env []string, path string) []string {
	out := make([]string, 0, len(env)+1)
	for _, kv := range env {
		if !strings.HasPrefix(kv, "PATH=") {
			out = append(out, kv)
		}
	}
	return append(out, "PATH="+path)
}

// runEnv drops Wisp's secrets and sets the terminal type.
func runEnv(env, secrets []string) []string {
	out := make([]string, 0, len(env)+2)
	for _, kv := range env {
		name, _, _ := strings.Cut(kv, "=")
		if name == "TERM" || name == "COLORTERM" || slices.Contains(secrets, name) {
			continue
		}
		out = append(out, kv)
	}
	return append(out, "TERM=xterm-256color", "COLORTERM=truecolor")
}

// Errors of Manager.Start and lookups.
var (
	ErrBusy     = errors.New("too many terminal runs")
	ErrStopped  = errors.New("the terminal manager is stopped")
	ErrNotFound = errors.New("no such terminal run")
)

// Manager starts runs within the limits and keeps the active and recent ones.
type Manager struct {
	opts Options
	log  *slog.Logger

	mu       sync.Mutex
	runs     map[string]*Run
	active   int
	finished []*Run // oldest first, at most KeepFinished
	stopped  bool
	wg       sync.WaitGroup // one per run until its last event is sent

	outboxBytes int // output held for a run's sink before its readers wait
}

// NewManager builds a manager.
func NewManager(opts Options) *Manager {
	opts.setDefaults()
	return &Manager{opts: opts, log: opts.Logger, runs: map[string]*Run{}, outboxBytes: outboxBytes}
}

// MaxConcurrent is the number of runs allowed at once.
func (m *Manager) MaxConcurrent() int { return m.opts.MaxConcurrent }

// MaxDuration is how long a run may take.
func (m *Manager) MaxDuration() time.Duration { return m.opts.MaxDuration }

// Dir is the working directory of a run that names none.
func (m *Manager) Dir() string { return m.opts.Dir }

// Shell is the shell every run's command line is given to (Shell -c command).
func (m *Manager) Shell() string { return m.opts.Shell }

// checkSize validates a terminal size.
func checkSize(cols, rows int) error {
	if cols < 1 || cols > 500 || rows < 1 || rows > 500 {
		return fmt.Errorf("cols and rows must be 1-500, got %d×%d", cols, rows)
	}
	return nil
}

// Start spawns a run. It fails with ErrBusy when MaxConcurrent runs are active. A
// shell that cannot be started is not an error here: the run ends at once with an
// error event and status "error".
func (m *Manager) Start(spec Spec) (*Run, error) {
	if spec.Cols == 0 && spec.Rows == 0 {
		spec.Cols, spec.Rows = 80, 24
	}
	if err := checkSize(spec.Cols, spec.Rows); err != nil {
		return nil, err
	}
	m.mu.Lock()
	if m.stopped {
		m.mu.Unlock()
		return nil, ErrStopped
	}
	if m.active >= m.opts.MaxConcurrent {
		m.mu.Unlock()
		return nil, fmt.Errorf("%w: at most %d at once", ErrBusy, m.opts.MaxConcurrent)
	}
	now := time.Now()
	id := newRunID(now)
	for m.runs[id] != nil {
		id = newRunID(now)
	}
	r := &Run{
		id: id, spec: spec, m: m, status: StatusRunning, started: now, cols: spec.Cols, rows: spec.Rows,
		scroll: scrollback{limit: m.opts.Scrollback},
		stdout: capture{limit: m.opts.CaptureLimit}, stderr: capture{limit: m.opts.CaptureLimit},
		out:  outbox{limit: m.outboxBytes},
		done: make(chan struct{}),
	}
	r.out.changed.L = &r.mu
	m.runs[id] = r
	m.active++
	m.wg.Add(1)
	m.mu.Unlock()
	m.log.Info("terminal run started", "run", id, "client", spec.Owner, "capture", spec.Capture)
	go r.deliver()
	r.start()
	return r, nil
}

// release moves a run from active to finished; it is called once per run.
func (m *Manager) release(r *Run) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.active--
	m.finished = append(m.finished, r)
	if len(m.finished) > m.opts.KeepFinished {
		delete(m.runs, m.finished[0].id)
		m.finished[0] = nil
		m.finished = m.finished[1:]
	}
}

// Get finds an active or recent run.
func (m *Manager) Get(id string) (*Run, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if r := m.runs[id]; r != nil {
		return r, nil
	}
	return nil, ErrNotFound
}

// List describes the active and recent runs, newest first.
func (m *Manager) List() []Info {
	m.mu.Lock()
	runs := make([]*Run, 0, len(m.runs))
	for _, r := range m.runs {
		runs = append(runs, r)
	}
	m.mu.Unlock()
	out := make([]Info, 0, len(runs))
	for _, r := range runs {
		out = append(out, r.Info())
	}
	slices.SortFunc(out, func(a, b Info) int {
		if a.StartedAt != b.StartedAt {
			return int(b.StartedAt - a.StartedAt)
		}
		return strings.Compare(b.RunID, a.RunID)
	})
	return out
}

// Stop refuses new runs, ends the active ones (SIGTERM, then SIGKILL after the grace)
// and waits until each has sent its exit event.
func (m *Manager) Stop() {
	m.mu.Lock()
	m.stopped = true
	var active []*Run
	for _, r := range m.runs {
		active = append(active, r)
	}
	m.mu.Unlock()
	for _, r := range active {
		_ = r.stop(stopShutdown)
	}
	m.wg.Wait()
}
