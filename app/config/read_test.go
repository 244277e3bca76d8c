package config

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	rt "github.com/wispapp/wisp/internal/regular/regulartest"
)

// Load (at start) and Read (the watcher, a save) refuse what is not a regular file of
// a sane size, at once and with a message that names the path and says what is there.
// A link is followed (a dotfiles manager may link the file), so a link to /dev/zero is
// a device.
func TestReadRefusesWhatIsNotASettingsFile(t *testing.T) {
	const only = ", not a regular file: Wisp reads its settings only from a regular file"
	cases := []struct {
		odd  rt.Odd
		want string // after "read config: <path>"
	}{
		{rt.FIFO, " is a named pipe" + only},
		{rt.DevZero, " is a device" + only},
		{rt.Folder, " is a folder" + only},
		{rt.Socket, " is a socket" + only},
		{rt.Huge, " is larger than 4 MiB, too large for a settings file"},
	}
	for _, tc := range cases {
		t.Run(tc.odd.Name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "wisp.json")
			tc.odd.Make(t, path)
			loadErr := rt.ReturnsSoon(t, "Load", func() error { _, err := Load(path); return err })
			readErr := rt.ReturnsSoon(t, "Read", func() error { _, err := Read(path); return err })
			for what, err := range map[string]error{"Load": loadErr, "Read": readErr} {
				if want := "read config: " + path + tc.want; err == nil || err.Error() != want {
					t.Errorf("%s: %v\nwant %s", what, err, want)
				}
			}
			if tc.odd.Name == rt.FIFO.Name {
				if st, err := os.Lstat(path); err != nil || st.Mode()&fs.ModeNamedPipe == 0 {
					t.Errorf("the FIFO was replaced: %v %v", st, err)
				}
			}
		})
	}
}

// An oversized settings file of valid JSON is refused too.
func TestReadRefusesAnOversizedFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "wisp.json")
	write(t, path, `{"character":{"bio":"`+strings.Repeat("a", MaxFileBytes)+`"}}`)
	if _, err := Read(path); err == nil || !strings.Contains(err.Error(), "larger than 4 MiB") {
		t.Fatalf("err = %v", err)
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
