package config

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// returnsSoon runs read and fails if it does not return within a deadline (a
// deadline, not a speed claim: a read that blocks never returns). A read that never
// ends (a FIFO with no writer, an endless device growing the heap) cannot be stopped
// from here, so that failure ends the test binary at once.
func returnsSoon(t *testing.T, path string, read func() error) error {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- read() }()
	select {
	case err := <-done:
		return err
	case <-time.After(10 * time.Second):
		panic(fmt.Sprintf("reading %s did not return: it blocks, or reads without end", path))
	}
}

// Load (at start) and Read (the watcher, a save) refuse what is not a regular file of
// a sane size, at once and with a message that says so.
func TestReadRefusesWhatIsNotASettingsFile(t *testing.T) {
	cases := []struct {
		name string
		make func(t *testing.T, path string)
		want string
	}{
		{"a FIFO", func(t *testing.T, path string) {
			if err := syscall.Mkfifo(path, 0o600); err != nil {
				t.Fatal(err)
			}
		}, "is a named pipe, not a regular file"},
		{"a link to /dev/zero", func(t *testing.T, path string) {
			if err := os.Symlink("/dev/zero", path); err != nil {
				t.Fatal(err)
			}
		}, "is a device, not a regular file"},
		{"a folder", func(t *testing.T, path string) {
			if err := os.Mkdir(path, 0o700); err != nil {
				t.Fatal(err)
			}
		}, "is a folder, not a regular file"},
		{"an oversized file", func(t *testing.T, path string) {
			big := `{"character":{"bio":"` + strings.Repeat("a", MaxFileBytes) + `"}}`
			write(t, path, big)
		}, "larger than 4 MiB"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "wisp.json")
			tc.make(t, path)
			loadErr := returnsSoon(t, path, func() error { _, err := Load(path); return err })
			readErr := returnsSoon(t, path, func() error { _, err := Read(path); return err })
			for what, err := range map[string]error{"Load": loadErr, "Read": readErr} {
				if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), path) {
					t.Errorf("%s: %v, want an error naming the path and saying %q", what, err, tc.want)
				}
			}
			if tc.name == "a FIFO" {
				if st, err := os.Lstat(path); err != nil || st.Mode()&fs.ModeNamedPipe == 0 {
					t.Errorf("the FIFO was replaced: %v %v", st, err)
				}
			}
		})
	}
}

// A file of exactly the cap is read; a link to a regular file is followed.
func TestReadTakesARegularFileUpToTheCap(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "wisp.json")
	content := `{"character":{"name":"Capped"}}`
	write(t, path, content+strings.Repeat(" ", MaxFileBytes-len(content)))
	f, err := Read(path)
	if err != nil || f.Config.Character.Name != "Capped" {
		t.Fatalf("a file of exactly %d bytes: %v", MaxFileBytes, err)
	}
	linked := filepath.Join(dir, "linked.json")
	if err := os.Symlink(path, linked); err != nil {
		t.Fatal(err)
	}
	if f, err := Load(linked); err != nil || f.Config.Character.Name != "Capped" {
		t.Fatalf("a link to a regular file: %v", err)
	}
	if _, err := Read(filepath.Join(dir, "missing.json")); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("a missing file: %v", err)
	}
}

// A FIFO put where the file was while it is watched is reported as an error at once.
func TestWatchRefusesAFIFO(t *testing.T) {
	path, calls := watchFile(t, `{"character":{"name":"Good"}}`)
	fifo := path + ".fifo"
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(fifo, path); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { // releases a read that blocked on the FIFO, so the watcher can stop
		if w, err := os.OpenFile(path, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
			w.Close()
		}
	})
	untilReload(t, calls, "refused the FIFO", func(s seen) bool {
		return s.err != nil && strings.Contains(s.err.Error(), "is a named pipe")
	})
}
