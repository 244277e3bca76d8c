package confine

import (
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"sync"
	"sync/atomic"
)

// Level says how far confinement holds.
type Level string

// The levels, for GET /api/status's confinement.
const (
	Full    Level = "full"    // paths and ports denied
	Partial Level = "partial" // something of the policy cannot be enforced
	None    Level = "none"    // processes start unconfined
)

// Mode forces a fallback, as on a kernel with less Landlock (tests).
type Mode string

// The modes.
const (
	Auto  Mode = ""      // as far as the kernel allows
	Paths Mode = "paths" // no network rules, as with Landlock ABI 1-3
	Off   Mode = "off"   // no confinement, as without Landlock
)

// Policy is what a confined process may not reach.
type Policy struct {
	// Deny are files and folders it may neither read nor write, nor create, remove or
	// rename anything in.
	Deny []string
	// Ports are TCP ports it may neither connect to nor bind.
	Ports []int
}

func (p Policy) normal() Policy {
	deny := slices.Clone(p.Deny)
	slices.Sort(deny)
	ports := slices.Clone(p.Ports)
	slices.Sort(ports)
	return Policy{Deny: slices.Compact(deny), Ports: slices.Compact(ports)}
}

// Options tune a Confiner.
type Options struct {
	Mode   Mode
	Logger *slog.Logger
}

// ErrClosed is returned by Start after Close.
var ErrClosed = errors.New("confinement is closed")

// Confiner starts processes confined by its policy.
type Confiner struct {
	log  *slog.Logger
	mode Mode
	abi  int    // the kernel's Landlock ABI, 0 without
	none string // why there is no Landlock ("" when there is)

	status atomic.Pointer[status]

	mu      sync.Mutex
	policy  *Policy // nil until Set
	plan    plan
	paths   *pathLayer // built from plan, nil until needed
	net     *netBuild  // the network rules of policy.Ports, nil until needed
	current *spawner   // restricted by paths and net
	failed  error      // confinement broke: processes start unconfined from now on
	closed  bool
	builds  sync.WaitGroup
	hidden  sync.Once
}

// New looks at what the kernel offers. Nothing is built until Set and Start.
func New(o Options) *Confiner {
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
	c := &Confiner{log: o.Logger, mode: o.Mode}
	c.abi, c.none = detect()
	c.updateStatusLocked()
	return c
}

// Set replaces the policy; processes started from now on get it. Processes already
// started keep theirs.
func (c *Confiner) Set(p Policy) {
	p = p.normal()
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed || (c.policy != nil && slices.Equal(c.policy.Deny, p.Deny) && slices.Equal(c.policy.Ports, p.Ports)) {
		return
	}
	if c.policy == nil || !slices.Equal(c.policy.Deny, p.Deny) {
		c.plan = planPaths(p.Deny)
		c.dropPathsLocked()
	}
	if c.policy == nil || !slices.Equal(c.policy.Ports, p.Ports) {
		c.dropNetLocked()
	}
	c.policy = &p
	c.retireLocked()
	c.updateStatusLocked()
}

// Prepare builds the rules and restricts a thread in the background now, so that
// the first confined process does not wait for them.
func (c *Confiner) Prepare() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed || c.policy == nil || c.unconfinedLocked() {
		return
	}
	nb := c.netLocked()
	c.builds.Go(func() {
		if nb != nil {
			<-nb.done
		}
		c.mu.Lock()
		defer c.mu.Unlock()
		if c.closed || c.policy == nil || c.unconfinedLocked() {
			return
		}
		if _, err := c.buildLocked(); err != nil {
			// The next Start meets it again, fails and turns confinement off.
			c.log.Warn("confinement could not be prepared", "err", err)
		}
	})
}

// Start calls start, which must start one process (an exec.Cmd's Start) and return,
// so that the process begins inside the confinement. Call release once the process
// has been waited for. Without confinement (Status None) start is simply called. If
// confinement fails unexpectedly, the process is not started: Start says why, and
// confinement is off (None) from then on.
func (c *Confiner) Start(start func() error) (release func(), err error) {
	sp, err := c.spawner()
	if err != nil {
		return nil, err
	}
	if sp == nil {
		return func() {}, start()
	}
	if err := sp.do(start); err != nil {
		sp.release()
		return nil, err
	}
	return sync.OnceFunc(sp.release), nil
}

// spawner is the thread to start a process from, held for it; nil when processes
// start unconfined.
func (c *Confiner) spawner() (*spawner, error) {
	for {
		c.mu.Lock()
		sp, wait, err := c.readyLocked()
		c.mu.Unlock()
		if wait == nil {
			return sp, err
		}
		<-wait.done // built off the lock; then look again: the policy may have changed
	}
}

// readyLocked returns the spawner, held for a process, or the network build to wait
// for; all nil when processes start unconfined.
func (c *Confiner) readyLocked() (sp *spawner, wait *netBuild, err error) {
	switch {
	case c.closed:
		return nil, nil, ErrClosed
	case c.unconfinedLocked():
		return nil, nil, nil
	case c.policy == nil:
		return nil, nil, errors.New("confine: no policy yet")
	}
	wait, err = c.buildLocked()
	if err != nil {
		return nil, nil, c.failLocked(err)
	}
	if wait != nil {
		return nil, wait, nil
	}
	c.current.hold()
	return c.current, nil, nil
}

func (c *Confiner) unconfinedLocked() bool { return c.none != "" || c.mode == Off || c.failed != nil }

// failLocked turns confinement off after an unexpected failure.
func (c *Confiner) failLocked(err error) error {
	c.failed = err
	c.log.Error("confinement failed: processes start unconfined from now on", "err", err)
	c.retireLocked()
	c.dropPathsLocked()
	c.dropNetLocked()
	c.updateStatusLocked()
	return fmt.Errorf("cannot confine the process: %w", err)
}

func (c *Confiner) retireLocked() {
	if c.current != nil {
		c.current.retire()
		c.current = nil
	}
}

// Close stops the spawner once the processes it started are released, and waits for
// builds in progress. Start fails from then on.
func (c *Confiner) Close() {
	c.mu.Lock()
	c.closed = true
	c.retireLocked()
	c.dropPathsLocked()
	c.dropNetLocked()
	c.mu.Unlock()
	c.builds.Wait()
}
