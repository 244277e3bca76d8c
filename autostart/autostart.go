// Package autostart writes, reads and removes Wisp's XDG autostart entry, the
// desktop entry a desktop session starts at login
// ($XDG_CONFIG_HOME/autostart/wisp.desktop, by the XDG Autostart and Base Directory
// specifications). It is a leaf: it imports nothing of Wisp but internal/.
package autostart

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/wispapp/wisp/internal/atomicfile"
	"github.com/wispapp/wisp/internal/regular"
)

// FileName is the entry's name in the autostart folder. A session starts one entry
// per name, and a user's entry hides a system one of the same name.
const FileName = "wisp.desktop"

// maxEntryBytes caps what is read of an entry: a desktop entry is a few hundred bytes.
const maxEntryBytes = 64 << 10

// Entry is one user's autostart entry for Wisp.
type Entry struct {
	Path string // the entry's file
}

// Locate finds the entry from the environment: $XDG_CONFIG_HOME/autostart when
// XDG_CONFIG_HOME is an absolute path (the specification ignores a relative one),
// else $HOME/.config/autostart.
func Locate(getenv func(string) string) (Entry, error) {
	if d := getenv("XDG_CONFIG_HOME"); filepath.IsAbs(d) {
		return Entry{Path: filepath.Join(d, "autostart", FileName)}, nil
	}
	if home := getenv("HOME"); filepath.IsAbs(home) {
		return Entry{Path: filepath.Join(home, ".config", "autostart", FileName)}, nil
	}
	return Entry{}, errors.New("no autostart folder: neither XDG_CONFIG_HOME nor HOME is an absolute path")
}

// Enabled reports whether the entry is there and in effect: a session would start
// it at login (it is not marked Hidden=true or X-GNOME-Autostart-enabled=false).
// A missing entry is not an error.
func (e Entry) Enabled() (bool, error) {
	data, err := readEntry(e.Path)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	return inEffect(data), nil
}

// Enable makes the entry start cmd (cmd[0] an absolute path) at login. It writes
// the entry atomically (a temporary file in the same folder, fsync, a rename), and
// not at all when the entry already says exactly that.
func (e Entry) Enable(cmd []string) error {
	content, err := Content(cmd)
	if err != nil {
		return err
	}
	e.sweep()
	if old, err := readEntry(e.Path); err == nil && string(old) == content {
		return nil
	}
	return writeAtomic(e.Path, []byte(content))
}

// Disable removes the entry; one that is not there is not an error.
func (e Entry) Disable() error {
	e.sweep()
	if err := os.Remove(e.Path); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("remove the autostart entry: %w", err)
	}
	return nil
}

// readEntry reads the entry, a regular file of at most maxEntryBytes, never blocking
// on what is found at path (a named pipe is refused before anything is read). A link
// is followed: a dotfiles manager may keep the entry as one.
func readEntry(path string) ([]byte, error) {
	return regular.ReadFile(path, maxEntryBytes, regular.Follow)
}

// writeAtomic writes data to path through a temporary file in the same folder
// (internal/atomicfile), so a session reading the folder at login sees the old entry
// or the new one, never half of one. The folder is made (mode 0700, as the Base
// Directory specification asks) when it is missing.
func writeAtomic(path string, data []byte) error {
	if err := atomicfile.Write(path, data, 0o644); err != nil {
		return fmt.Errorf("write the autostart entry: %w", err)
	}
	return nil
}

// sweep removes the temporary files that writes of the entry killed before their
// rename left in the folder; one another Wisp is writing is kept
// (atomicfile.Sweep). Wisp changes the entry rarely, and cleans up then. A sweep
// that fails leaves the files for the next change.
func (e Entry) sweep() {
	_, _ = atomicfile.Sweep(filepath.Dir(e.Path), FileName)
}
