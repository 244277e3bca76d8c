package config

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

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

func next(t *testing.T, calls chan seen) seen {
	t.Helper()
	select {
	case s := <-calls:
		return s
	case <-time.After(5 * time.Second):
		t.Fatal("the change was not noticed")
		return seen{}
	}
}

// quiet checks no further call comes (a second reload would come within the debounce).
func quiet(t *testing.T, calls chan seen) {
	t.Helper()
	select {
	case s := <-calls:
		t.Fatalf("unexpected extra reload: %+v", s)
	case <-time.After(3 * DefaultDebounce):
	}
}

func wantName(t *testing.T, s seen, name string) {
	t.Helper()
	if s.err != nil {
		t.Fatalf("reload failed: %v", s.err)
	}
	if s.file.Config.Character.Name != name {
		t.Fatalf("name = %q, want %q", s.file.Config.Character.Name, name)
	}
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
			wantName(t, next(t, calls), "Grace")
			quiet(t, calls)
			save(t, path, `{"character":{"name":"Linus"}}`) // and again: the watch survives the save
			wantName(t, next(t, calls), "Linus")
		})
	}
}

func TestWatchBurstIsOneReload(t *testing.T) {
	path, calls := watchFile(t, `{}`)
	for i := range 20 { // 20 saves in 200 ms
		if err := writeAtomic(path, []byte(`{"character":{"name":"N`+strings.Repeat("i", i)+`"}}`)); err != nil {
			t.Fatal(err)
		}
		time.Sleep(10 * time.Millisecond)
	}
	wantName(t, next(t, calls), "N"+strings.Repeat("i", 19))
	quiet(t, calls)
}

func TestWatchInvalidThenFixed(t *testing.T) {
	path, calls := watchFile(t, `{}`)
	write(t, path, `{"character": {"name": "Ada",}`)
	s := next(t, calls)
	if s.err == nil || !strings.Contains(s.err.Error(), "not valid JSON") {
		t.Fatalf("broken JSON: err = %v", s.err)
	}
	write(t, path, `{"server":{"port":70000}}`)
	if s := next(t, calls); s.err == nil || !strings.Contains(s.err.Error(), "server.port must be 0-65535") {
		t.Fatalf("invalid value: err = %v", s.err)
	}
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	if s := next(t, calls); s.err == nil || !strings.Contains(s.err.Error(), "missing") {
		t.Fatalf("removed file: err = %v", s.err)
	}
	if _, err := os.Stat(path); err == nil {
		t.Fatal("the watcher must not write a missing file back")
	}
	write(t, path, `{"character":{"name":"Fixed"}}`)
	wantName(t, next(t, calls), "Fixed")
}

func TestWatchIgnoresSiblings(t *testing.T) {
	path, calls := watchFile(t, `{}`)
	dir := filepath.Dir(path)
	for _, name := range []string{"wisp.db", "wisp.db-wal", "wisp.json.bak"} {
		write(t, filepath.Join(dir, name), "x")
	}
	quiet(t, calls)
}
