package terminal

import (
	"fmt"
	"log/slog"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

var quiet = slog.New(slog.DiscardHandler)

// recorder is a Sink that keeps every event.
type recorder struct {
	mu     sync.Mutex
	events []Event
}

func (rec *recorder) sink(e Event) {
	rec.mu.Lock()
	defer rec.mu.Unlock()
	rec.events = append(rec.events, e)
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
	case <-time.After(20 * time.Second):
		t.Fatalf("run %s did not end; events so far: %+v", r.ID(), rec.of(r.ID()))
	}
	evs := rec.of(r.ID())
	last := evs[len(evs)-1]
	if last.Kind != KindExit && last.Kind != KindError {
		t.Fatalf("last event is %q, want exit or error", last.Kind)
	}
	return last
}

// eventually polls cond for up to 10 s.
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// processGone reports whether pid no longer runs: absent, or a zombie nobody reaped
// (a container's init may not reap orphans).
func processGone(pid int) bool {
	st := processState(pid)
	return st == 0 || st == 'Z'
}

// processState is the state letter of pid in /proc (R, S, Z, ...), 0 when it is gone.
func processState(pid int) byte {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0
	}
	// The state follows the command name in parentheses.
	s := string(data)
	if i := strings.LastIndexByte(s, ')'); i >= 0 && i+2 < len(s) {
		return s[i+2]
	}
	return 0
}

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
