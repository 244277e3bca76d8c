package confine

import (
	"fmt"
	"runtime"
	"sync"

	ll "github.com/landlock-lsm/go-landlock/landlock/syscall"
	"golang.org/x/sys/unix"
)

// spawner is a goroutine locked for good to an OS thread restricted by the rulesets
// of paths and net: the processes it starts begin inside their domain. It ends, and
// its thread with it, once retired and no process it started is held any more.
type spawner struct {
	paths *pathLayer
	net   *netBuild // nil without network rules
	jobs  chan func()
	quit  chan struct{}

	mu      sync.Mutex
	held    int
	retired bool
}

// newSpawner starts a spawner and returns once its thread is restricted.
func newSpawner(paths *pathLayer, net *netBuild) (*spawner, error) {
	fds := []int{paths.fd}
	if net != nil {
		fds = append(fds, net.fd)
	}
	s := &spawner{paths: paths, net: net, jobs: make(chan func()), quit: make(chan struct{})}
	ready := make(chan error, 1)
	go s.run(fds, ready, nil)
	if err := <-ready; err != nil {
		return nil, err
	}
	return s, nil
}

// run restricts its thread and serves the jobs. locked, when set, hears that it
// holds its thread.
func (s *spawner) run(fds []int, ready chan<- error, locked chan<- struct{}) {
	// Never unlocked once restricted: the thread carries the domain and must end
	// with this goroutine (see the package doc).
	runtime.LockOSThread()
	if locked != nil {
		close(locked)
	}
	if unix.Gettid() == unix.Getpid() {
		// The main thread would outlive this goroutine (the runtime parks it for good
		// instead of ending it) and is the one /proc/<pid>/ names: hand over to a
		// goroutine that cannot get it, since it is ours until it has its own thread.
		next := make(chan struct{})
		go s.run(fds, ready, next)
		<-next
		runtime.UnlockOSThread() // still unrestricted
		return
	}
	if err := restrictThread(fds); err != nil {
		ready <- err
		return
	}
	ready <- nil
	for {
		select {
		case job := <-s.jobs:
			job()
		case <-s.quit:
			return
		}
	}
}

// restrictThread sets no_new_privs (which an unprivileged landlock_restrict_self
// needs; setuid programs do not gain privileges either) and enforces each ruleset as
// a layer, on the calling thread only.
func restrictThread(fds []int) error {
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		return fmt.Errorf("set no_new_privs: %w", err)
	}
	for _, fd := range fds {
		if err := ll.LandlockRestrictSelf(fd, 0); err != nil {
			return fmt.Errorf("landlock_restrict_self: %w", err)
		}
	}
	return nil
}

// do runs start on the restricted thread.
func (s *spawner) do(start func() error) error {
	done := make(chan error, 1)
	s.jobs <- func() { done <- start() }
	return <-done
}

// hold keeps the spawner for a process about to start.
func (s *spawner) hold() {
	s.mu.Lock()
	s.held++
	s.mu.Unlock()
}

// release lets go of a process's hold.
func (s *spawner) release() {
	s.mu.Lock()
	s.held--
	end := s.retired && s.held == 0
	s.mu.Unlock()
	if end {
		close(s.quit)
	}
}

// retire starts no more processes; the spawner ends once nothing holds it.
func (s *spawner) retire() {
	s.mu.Lock()
	s.retired = true
	end := s.held == 0
	s.mu.Unlock()
	if end {
		close(s.quit)
	}
}

// hideProcess makes Wisp's process not dumpable, so that /proc/<pid>/ of Wisp's
// threads belongs to root: a confined process shares its domain with the spawner
// thread that forked it, and Landlock would let it read that thread's environ or
// memory (/proc/<pid>/task/<tid>/), as the same user may.
func (c *Confiner) hideProcess() {
	if err := unix.Prctl(unix.PR_SET_DUMPABLE, 0, 0, 0, 0); err != nil {
		c.log.Warn("cannot make Wisp's process undumpable", "err", err)
	}
}
