package fswatch_test

import (
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"github.com/fsnotify/fsnotify"
	"go.uber.org/goleak"

	"github.com/wispapp/wisp/internal/fswatch"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// watch starts a watcher on a fresh folder that counts settled bursts on calls.
func watch(t *testing.T, relevant func(*fswatch.Watcher, fsnotify.Event) bool) (string, *atomic.Int32, chan struct{}) {
	t.Helper()
	dir := t.TempDir()
	var calls atomic.Int32
	fired := make(chan struct{}, 16)
	w, err := fswatch.New(fswatch.Options{
		Debounce: 100 * time.Millisecond,
		Relevant: relevant,
		OnChange: func() { calls.Add(1); fired <- struct{}{} },
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
	if err := w.Add(dir); err != nil {
		t.Fatal(err)
	}
	return dir, &calls, fired
}

func waitFired(t *testing.T, fired chan struct{}) {
	t.Helper()
	select {
	case <-fired:
	case <-time.After(5 * time.Second):
		t.Fatal("no change reported")
	}
}

func TestBurstSettlesIntoOneCall(t *testing.T) {
	dir, calls, fired := watch(t, nil)
	for i := range 20 {
		if err := os.WriteFile(filepath.Join(dir, "f"), []byte{byte(i)}, 0o600); err != nil {
			t.Fatal(err)
		}
		time.Sleep(5 * time.Millisecond)
	}
	waitFired(t, fired)
	time.Sleep(300 * time.Millisecond) // a second call would come within the debounce
	if n := calls.Load(); n != 1 {
		t.Fatalf("OnChange ran %d times for one burst, want 1", n)
	}
}

func TestIrrelevantEventsAreIgnored(t *testing.T) {
	dir, calls, fired := watch(t, func(_ *fswatch.Watcher, ev fsnotify.Event) bool {
		return filepath.Base(ev.Name) == "wanted"
	})
	if err := os.WriteFile(filepath.Join(dir, "other"), []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "wanted"), []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	waitFired(t, fired)
	if err := os.WriteFile(filepath.Join(dir, "other"), []byte("y"), 0o600); err != nil {
		t.Fatal(err)
	}
	time.Sleep(300 * time.Millisecond)
	if n := calls.Load(); n != 1 {
		t.Fatalf("OnChange ran %d times, want 1 (the other file does not count)", n)
	}
}
