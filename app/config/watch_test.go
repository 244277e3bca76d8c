package config

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fsnotify/fsnotify"
	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// seen is one OnChange call.
type seen struct {
	file *File
	err  error
}

// watchFile starts a watcher on a fresh config file (written first) and returns the
// file's path and the calls of OnChange. The watcher is closed (and must not leak)
// when the test ends.
func watchFile(t *testing.T, initial string) (string, chan seen) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "wisp.json")
	write(t, path, initial)
	calls := make(chan seen, 64)
	w := NewWatcher(path, WatchOptions{OnChange: func(f *File, err error) { calls <- seen{f, err} }})
	if err := w.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(w.Stop)
	return path, calls
}

func write(t *testing.T, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
}

// untilReload reads reloads until done accepts one, failing after a deadline (a
// deadline, not a speed claim). How many reloads a save takes is the debounce's
// business (internal/fswatch tests it on a fake clock): on a busy machine an editor's
// save may be read half way, so earlier reloads may show the old file, a missing one
// or an empty one.
func untilReload(t *testing.T, calls chan seen, what string, done func(seen) bool) {
	t.Helper()
	deadline := time.After(10 * time.Second)
	for {
		select {
		case s := <-calls:
			if done(s) {
				return
			}
		case <-deadline:
			t.Fatalf("no reload %s", what)
		}
	}
}

// until waits for a reload that shows the name.
func until(t *testing.T, calls chan seen, name string) {
	t.Helper()
	untilReload(t, calls, "showed the name "+name, func(s seen) bool {
		return s.err == nil && s.file.Config.Character.Name == name
	})
}

// untilErr waits for a reload that fails saying what; none may succeed meanwhile.
func untilErr(t *testing.T, calls chan seen, what string) {
	t.Helper()
	untilReload(t, calls, "failed with "+what, func(s seen) bool {
		if s.err == nil {
			t.Fatalf("a reload succeeded while waiting for %q", what)
		}
		return strings.Contains(s.err.Error(), what)
	})
}

func TestWatchEditorSaves(t *testing.T) {
	saves := map[string]func(t *testing.T, path, content string){
		"atomic temp and rename": func(t *testing.T, path, content string) {
			tmp := path + ".tmp-123"
			write(t, tmp, content)
			if err := os.Rename(tmp, path); err != nil {
				t.Fatal(err)
			}
		},
		"vim: rename away, write new, delete backup": func(t *testing.T, path, content string) {
			backup := path + "~"
			if err := os.Rename(path, backup); err != nil {
				t.Fatal(err)
			}
			write(t, path, content)
			if err := os.Remove(backup); err != nil {
				t.Fatal(err)
			}
		},
		"truncate and write in place": func(t *testing.T, path, content string) {
			f, err := os.OpenFile(path, os.O_WRONLY|os.O_TRUNC, 0)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			if _, err := f.WriteString(content); err != nil {
				t.Fatal(err)
			}
		},
		"our own atomic save": func(t *testing.T, path, content string) {
			if err := writeAtomic(path, []byte(content)); err != nil {
				t.Fatal(err)
			}
		},
	}
	for name, save := range saves {
		t.Run(name, func(t *testing.T) {
			path, calls := watchFile(t, `{"character":{"name":"Ada"}}`)
			save(t, path, `{"character":{"name":"Grace"}}`)
			until(t, calls, "Grace")
			save(t, path, `{"character":{"name":"Linus"}}`) // and again: the watch survives the save
			until(t, calls, "Linus")
		})
	}
}

// A burst of saves ends with the last one read.
func TestWatchBurstEndsWithTheLastSave(t *testing.T) {
	path, calls := watchFile(t, `{}`)
	for i := range 20 {
		if err := writeAtomic(path, []byte(`{"character":{"name":"N`+strings.Repeat("i", i)+`"}}`)); err != nil {
			t.Fatal(err)
		}
	}
	until(t, calls, "N"+strings.Repeat("i", 19))
}

func TestWatchInvalidThenFixed(t *testing.T) {
	path, calls := watchFile(t, `{}`)
	write(t, path, `{"character": {"name": "Ada",}`)
	untilErr(t, calls, "not valid JSON")
	write(t, path, `{"server":{"port":70000}}`)
	untilErr(t, calls, "server.port must be 0-65535")
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	untilErr(t, calls, "missing")
	if _, err := os.Stat(path); err == nil {
		t.Fatal("the watcher must not write a missing file back")
	}
	write(t, path, `{"character":{"name":"Fixed"}}`)
	until(t, calls, "Fixed")
}

func TestWatchIgnoresSiblings(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "wisp.json")
	relevant := about(path)
	for name, want := range map[string]bool{
		path: true, filepath.Join(dir, ".", "wisp.json"): true,
		filepath.Join(dir, "wisp.db"): false, filepath.Join(dir, "wisp.db-wal"): false,
		path + ".bak": false, path + "~": false, dir: false,
	} {
		if got := relevant(nil, fsnotify.Event{Name: name, Op: fsnotify.Write}); got != want {
			t.Errorf("%s: relevant = %v, want %v", name, got, want)
		}
	}
	// And for real: the database's writes beside the file do not hide its own change.
	watched, calls := watchFile(t, `{}`)
	write(t, filepath.Join(filepath.Dir(watched), "wisp.db-wal"), "x")
	write(t, watched, `{"character":{"name":"Kept"}}`)
	until(t, calls, "Kept")
}
