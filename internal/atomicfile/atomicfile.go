// Package atomicfile replaces a small file whole, so that a reader sees the old
// content or the new, never part of one, and cleans up after writers that died
// before they were done. It owns the one way Wisp does that (its settings, its API
// token, the autostart entry): a temporary file in the same folder, named
// ".<name>.tmp-<random>", written, synced, given its mode and renamed over the file,
// then the folder synced.
//
// A writer that is killed between making its temporary file and renaming it leaves
// the file behind. Every writer holds an exclusive flock on its temporary file from
// the moment it makes it until the rename is done, and the kernel lets go of a dead
// process's locks however it died (kill -9 included). So Sweep removes a temporary
// file only when it can take that lock without waiting: a save in progress, by this
// process or another one sharing the folder, is never disturbed. So that a sweep
// never finds a temporary file in the instant between its making and its lock, a
// writer makes and locks it under a shared flock on the folder, and a sweep looks
// under an exclusive one.
//
// It imports nothing of Wisp.
package atomicfile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"
)

// TempPrefix is how the temporary files of name begin: ".<name>.tmp-".
func TempPrefix(name string) string { return "." + name + ".tmp-" }

// Write replaces the file at path with data and gives it perm, atomically. The folder
// is made (mode 0700) when it is missing. A link at path is replaced, not followed.
func Write(path string, data []byte, perm fs.FileMode) error {
	dir, name := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("create the folder: %w", err)
	}
	tmp, err := createLocked(dir, name)
	if err != nil {
		return err
	}
	renamed := false
	defer func() {
		if !renamed {
			os.Remove(tmp.Name())
		}
		tmp.Close() // lets go of the lock
	}()
	if err := tmp.Chmod(perm); err != nil {
		return err
	}
	if _, err := tmp.Write(data); err != nil {
		return err
	}
	if err := tmp.Sync(); err != nil {
		return err
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return err
	}
	renamed = true
	if d, err := os.Open(dir); err == nil {
		_ = d.Sync() // the rename itself, on disk
		d.Close()
	}
	return nil
}

// createLocked makes a temporary file for name in dir and takes its lock, both under
// the folder's shared lock, so no sweep sees the file unlocked. Where the filesystem
// has no flock the write goes on without the locks: a sweep there cannot take them
// either, and removes nothing.
func createLocked(dir, name string) (*os.File, error) {
	if d, err := lockFolder(dir, unix.LOCK_SH); err == nil {
		defer d.Close()
	}
	f, err := os.CreateTemp(dir, TempPrefix(name)+"*") // mode 0600
	if err != nil {
		return nil, err
	}
	_ = flock(f, unix.LOCK_EX)
	return f, nil
}

// Sweep removes the temporary files of name in dir that no writer holds: those left
// by a writer that died. It waits for writers only while they make their temporary
// file (an instant), never for one that is writing, and leaves alone anything that is
// not a regular file. It returns the paths it removed; a missing dir is not an error.
func Sweep(dir, name string) ([]string, error) {
	d, err := lockFolder(dir, unix.LOCK_EX)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer d.Close()
	entries, err := d.ReadDir(-1)
	if err != nil {
		return nil, err
	}
	var removed []string
	var errs []error
	for _, e := range entries {
		if !strings.HasPrefix(e.Name(), TempPrefix(name)) || !e.Type().IsRegular() {
			continue
		}
		path := filepath.Join(dir, e.Name())
		ok, err := removeUnlocked(path)
		if err != nil {
			errs = append(errs, err)
		}
		if ok {
			removed = append(removed, path)
		}
	}
	return removed, errors.Join(errs...)
}

// removeUnlocked removes the temporary file at path if it can take its lock without
// waiting, and while it holds it. It reports whether it removed it.
func removeUnlocked(path string) (bool, error) {
	// Opened for writing: where flock is done with POSIX locks (NFS), an exclusive
	// lock needs it.
	f, err := os.OpenFile(path, os.O_RDWR|syscall.O_NOFOLLOW|syscall.O_NONBLOCK|syscall.O_NOCTTY, 0)
	if errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ELOOP) {
		return false, nil // renamed by its writer, or swapped for a link since the listing
	}
	if err != nil {
		return false, err
	}
	defer f.Close()
	if st, err := f.Stat(); err != nil || !st.Mode().IsRegular() {
		return false, err
	}
	if err := flock(f, unix.LOCK_EX|unix.LOCK_NB); errors.Is(err, unix.EWOULDBLOCK) {
		return false, nil // a writer is at work
	} else if err != nil {
		return false, fmt.Errorf("lock %s: %w", path, err)
	}
	// Its writer may have renamed it since it was opened: remove the name only while
	// it is still this file.
	if !named(f, path) {
		return false, nil
	}
	if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return false, err
	}
	return true, nil
}

// lockFolder opens dir and takes a flock on it (writers share it for an instant, a
// sweep holds it alone): closing the folder lets go of it.
func lockFolder(dir string, how int) (*os.File, error) {
	d, err := os.Open(dir)
	if err != nil {
		return nil, err
	}
	if err := flock(d, how); err != nil {
		d.Close()
		return nil, fmt.Errorf("lock the folder %s: %w", dir, err)
	}
	return d, nil
}

// flock is flock(2) on f, again when a signal interrupts it.
func flock(f *os.File, how int) error {
	for {
		err := unix.Flock(int(f.Fd()), how)
		if !errors.Is(err, unix.EINTR) {
			return err
		}
	}
}

// named reports whether path still names the open file f.
func named(f *os.File, path string) bool {
	fst, err := f.Stat()
	if err != nil {
		return false
	}
	st, err := os.Lstat(path)
	return err == nil && os.SameFile(fst, st)
}
