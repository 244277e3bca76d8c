package terminal

import (
	"errors"
	"log/slog"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"go.uber.org/goleak"
	"golang.org/x/sys/unix"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

var quiet = slog.New(slog.DiscardHandler)

// waitLimit bounds every wait of a test for something that must happen.
const waitLimit = 10 * time.Second

// recorder is a Sink that keeps every event.
type recorder struct {
	mu      sync.Mutex
	events  []Event
	changed chan struct{} // closed at the next event; nil until someone waits
}

func (rec *recorder) sink(e Event) {
	rec.mu.Lock()
	defer rec.mu.Unlock()
	rec.events = append(rec.events, e)
	if rec.changed != nil {
		close(rec.changed)
		rec.changed = nil
	}
}

// next is a channel closed at the next event.
func (rec *recorder) next() <-chan struct{} {
	rec.mu.Lock()
	defer rec.mu.Unlock()
	if rec.changed == nil {
		rec.changed = make(chan struct{})
	}
	return rec.changed
}

// waitUntil waits until cond, checked again at every event, holds, or the deadline
// passes; it reports whether cond holds.
func (rec *recorder) waitUntil(deadline time.Time, cond func() bool) bool {
	timer := time.NewTimer(time.Until(deadline))
	defer timer.Stop()
	for {
		next := rec.next()
		if cond() {
			return true
		}
		select {
		case <-next:
		case <-timer.C:
			return cond()
		}
	}
}

// waitFor waits until cond, checked again at every event, holds.
func (rec *recorder) waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	if !rec.waitUntil(time.Now().Add(waitLimit), cond) {
		t.Fatalf("timed out waiting for %s", what)
	}
}

func (rec *recorder) of(runID string) []Event {
	rec.mu.Lock()
	defer rec.mu.Unlock()
	var out []Event
	for _, e := range rec.events {
		if e.RunID == runID {
			out = append(out, e)
		}
	}
	return out
}

// text concatenates a run's output of the given kinds.
func (rec *recorder) text(runID string, kinds ...Kind) string {
	var b strings.Builder
	for _, e := range rec.of(runID) {
		for _, k := range kinds {
			if e.Kind == k {
				b.WriteString(e.Data)
			}
		}
	}
	return b.String()
}

func newTestManager(t *testing.T, o Options) (*Manager, *recorder) {
	t.Helper()
	rec := &recorder{}
	o.Sink = rec.sink
	o.Logger = quiet
	if o.Dir == "" {
		o.Dir = t.TempDir()
	}
	m := NewManager(o)
	t.Cleanup(m.Stop)
	return m, rec
}

func start(t *testing.T, m *Manager, spec Spec) *Run {
	t.Helper()
	r, err := m.Start(spec)
	if err != nil {
		t.Fatalf("start %q: %v", spec.Command, err)
	}
	return r
}

// wait waits for the run's end and returns its last event, which must be exit or error.
func wait(t *testing.T, rec *recorder, r *Run) Event {
	t.Helper()
	select {
	case <-r.Done():
	case <-time.After(2 * waitLimit):
		t.Fatalf("run %s did not end; events so far: %+v", r.ID(), rec.of(r.ID()))
	}
	evs := rec.of(r.ID())
	last := evs[len(evs)-1]
	if last.Kind != KindExit && last.Kind != KindError {
		t.Fatalf("last event is %q, want exit or error", last.Kind)
	}
	return last
}

// waitRun waits until cond, called under the run's lock, holds; it is checked again
// whenever the run's outbox changes.
func waitRun(t *testing.T, r *Run, what string, cond func() bool) {
	t.Helper()
	timedOut := false
	timer := time.AfterFunc(waitLimit, func() {
		r.mu.Lock()
		defer r.mu.Unlock()
		timedOut = true
		r.out.changed.Broadcast()
	})
	defer timer.Stop()
	r.mu.Lock()
	defer r.mu.Unlock()
	for !cond() {
		if timedOut {
			t.Fatalf("timed out waiting for %s", what)
		}
		r.out.changed.Wait()
	}
}

// waitGone waits until process pid has exited: it is gone, or a zombie nobody has
// reaped yet (its parent, or a container's init that does not reap orphans). A pidfd
// becomes readable then.
func waitGone(t *testing.T, pid int, what string) {
	t.Helper()
	fd, err := unix.PidfdOpen(pid, 0)
	if errors.Is(err, unix.ESRCH) {
		return
	}
	if err != nil {
		t.Fatalf("pidfd of %d: %v", pid, err)
	}
	defer unix.Close(fd)
	fds := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}
	for {
		n, err := unix.Poll(fds, int(waitLimit.Milliseconds()))
		switch {
		case errors.Is(err, unix.EINTR):
			continue
		case err != nil:
			t.Fatalf("poll the pidfd of %d: %v", pid, err)
		case n == 0:
			t.Fatalf("timed out waiting for %s", what)
		}
		return
	}
}

// viewer is a fake Options.Ready: the viewers of tab-1 are behind until catchUp, and
// every other owner's are ready. asked gets a token each time output had to wait.
type viewer struct {
	caughtUp chan struct{}
	once     sync.Once
	asked    chan struct{}
}

func newViewer() *viewer {
	return &viewer{caughtUp: make(chan struct{}), asked: make(chan struct{}, 1)}
}

func (v *viewer) ready(owner string) (bool, <-chan struct{}) {
	select {
	case <-v.caughtUp:
		return true, nil
	default:
	}
	if owner != "tab-1" {
		return true, nil
	}
	select {
	case v.asked <- struct{}{}:
	default:
	}
	return false, v.caughtUp
}

func (v *viewer) catchUp() { v.once.Do(func() { close(v.caughtUp) }) }

// firstLineInt reads the number on the first line of s.
func firstLineInt(t *testing.T, s string) int {
	t.Helper()
	line, _, _ := strings.Cut(s, "\n")
	n, err := strconv.Atoi(strings.TrimSpace(line))
	if err != nil {
		t.Fatalf("no number on the first line of %q", s)
	}
	return n
}
