package fswatch_test

import (
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/fsnotify/fsnotify"
	"go.uber.org/goleak"

	"github.com/wispapp/wisp/internal/clock"
	"github.com/wispapp/wisp/internal/fswatch"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

const debounce = 100 * time.Millisecond

// harness is a watcher on a fresh folder whose debounce runs on a fake clock, so a
// test decides when a burst is over instead of waiting for it.
type harness struct {
	dir   string
	clk   *clock.Fake
	seen  chan string // the base name of every event the watcher looked at, in order
	calls atomic.Int32
	fired chan struct{}
}

func watch(t *testing.T, relevant func(*fswatch.Watcher, fsnotify.Event) bool) *harness {
	t.Helper()
	h := &harness{dir: t.TempDir(), clk: clock.NewFake(time.Unix(0, 0)), seen: make(chan string, 256), fired: make(chan struct{}, 16)}
	w, err := fswatch.New(fswatch.Options{
		Debounce: debounce,
		Clock:    h.clk,
		Relevant: func(w *fswatch.Watcher, ev fsnotify.Event) bool {
			name := filepath.Base(ev.Name)
			h.seen <- name
			if strings.HasPrefix(name, syncPrefix) {
				return false // settle's own: it arms nothing
			}
			return relevant == nil || relevant(w, ev)
		},
		OnChange: func() { h.calls.Add(1); h.fired <- struct{}{} },
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := w.Close(); err != nil {
			t.Error(err)
		}
		if err := w.Close(); err != nil { // twice is fine
			t.Error(err)
		}
	})
	if err := w.Add(h.dir); err != nil {
		t.Fatal(err)
	}
	return h
}

func (h *harness) write(t *testing.T, name string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(h.dir, name), []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
}

// syncPrefix names the folders settle makes to know the watcher is done with what
// came before: the watcher looks at them and arms nothing.
const syncPrefix = "sync-"

// settle makes a folder named marker (one event) and waits until the watcher has
// handled it: events are handled one at a time, in order, so once the watcher looks
// at the next one (an event settle makes, which arms nothing), the marker and every
// event before it have been handled, their debounce timer armed.
func (h *harness) settle(t *testing.T, marker string) {
	t.Helper()
	for _, name := range []string{marker, syncPrefix + marker} {
		if err := os.Mkdir(filepath.Join(h.dir, name), 0o700); err != nil {
			t.Fatal(err)
		}
		h.waitSeen(t, name)
	}
}

func (h *harness) waitSeen(t *testing.T, want string) {
	t.Helper()
	deadline := time.After(10 * time.Second)
	for {
		select {
		case name := <-h.seen:
			if name == want {
				return
			}
		case <-deadline:
			t.Fatalf("the watcher never saw %s", want)
		}
	}
}

func (h *harness) waitFired(t *testing.T) {
	t.Helper()
	select {
	case <-h.fired:
	case <-time.After(10 * time.Second):
		t.Fatal("no change reported")
	}
}

func TestBurstSettlesIntoOneCall(t *testing.T) {
	h := watch(t, nil)
	for range 20 {
		h.write(t, "f")
	}
	h.settle(t, "marker")
	if n := h.clk.Waiters(); n != 1 {
		t.Fatalf("%d debounce timers armed, want 1", n)
	}
	if h.calls.Load() != 0 {
		t.Fatal("OnChange ran before the burst settled")
	}
	h.clk.Advance(debounce)
	h.waitFired(t)
	if n, armed := h.calls.Load(), h.clk.Waiters(); n != 1 || armed != 0 {
		t.Fatalf("OnChange ran %d times and %d timers wait, want 1 and 0", n, armed)
	}
}

func TestIrrelevantEventsAreIgnored(t *testing.T) {
	h := watch(t, func(_ *fswatch.Watcher, ev fsnotify.Event) bool {
		return filepath.Base(ev.Name) == "wanted"
	})
	h.write(t, "other")
	h.settle(t, "marker-1")
	if n := h.clk.Waiters(); n != 0 {
		t.Fatalf("an irrelevant file armed %d timers", n)
	}
	h.write(t, "wanted")
	h.settle(t, "marker-2")
	h.clk.Advance(debounce)
	h.waitFired(t)
	h.write(t, "other")
	h.settle(t, "marker-3")
	if n, armed := h.calls.Load(), h.clk.Waiters(); n != 1 || armed != 0 {
		t.Fatalf("OnChange ran %d times and %d timers wait, want 1 and 0 (the other file does not count)", n, armed)
	}
}
