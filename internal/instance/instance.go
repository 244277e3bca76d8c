// Package instance keeps one Wisp per state folder. The first Wisp holds a lock file
// in the folder with flock for as long as it lives, and writes into it who it is (its
// pid, how it runs, and once it listens, its URL without any token), so a second one
// can name it when it refuses to start. The kernel releases the lock when the process
// ends, however it ends: a crash or kill -9 never leaves a stale lock.
//
// It imports nothing of Wisp.
package instance

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"syscall"

	"golang.org/x/sys/unix"
)

// FileName is the lock file's name in the state folder.
const FileName = "wisp.lock"

// How a Wisp runs.
const (
	ModeDesktop = "desktop"
	ModeServe   = "serve"
)

// maxHolderBytes bounds what is read of a lock file: a holder is a short JSON object.
const maxHolderBytes = 4 << 10

// Holder says who holds the lock.
type Holder struct {
	PID  int    `json:"pid"`
	Mode string `json:"mode,omitempty"` // ModeDesktop or ModeServe
	URL  string `json:"url,omitempty"`  // where it answers, without a token; "" while it starts
}

// HeldError is the refusal of a second Wisp on a state folder: another process holds
// its lock.
type HeldError struct {
	Dir    string
	Holder Holder // what the holder wrote; zero if it had not written yet
}

func (e *HeldError) Error() string {
	var who string
	switch h := e.Holder; {
	case h.URL != "" && h.PID > 0:
		who = fmt.Sprintf("%s, pid %d", h.URL, h.PID)
	case h.PID > 0:
		who = fmt.Sprintf("pid %d, still starting", h.PID)
	default:
		who = "still starting"
	}
	return fmt.Sprintf("another Wisp is already running on this state folder (%s): %s; use that one, "+
		"or stop it first, or give this one another --state-dir", who, e.Dir)
}

// Lock is a held lock on a state folder.
type Lock struct {
	mu   sync.Mutex
	f    *os.File // nil once released
	path string
}

// Acquire takes the lock on dir (made if missing) for me, or fails with a *HeldError
// naming the process that holds it. It never waits.
func Acquire(dir string, me Holder) (*Lock, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("state folder: %w", err)
	}
	path := filepath.Join(dir, FileName)
	f, err := open(path)
	if err != nil {
		return nil, err
	}
	if err := unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB); err != nil {
		defer f.Close()
		if errors.Is(err, unix.EWOULDBLOCK) {
			return nil, &HeldError{Dir: dir, Holder: readHolder(f)}
		}
		return nil, fmt.Errorf("lock %s: %w", path, err)
	}
	l := &Lock{f: f, path: path}
	if err := l.Update(me); err != nil {
		l.Release()
		return nil, err
	}
	return l, nil
}

// open opens (or creates) the lock file without blocking on whatever is at path, and
// refuses anything that is not a regular file.
func open(path string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|syscall.O_NONBLOCK|syscall.O_NOFOLLOW, 0o600)
	if err != nil {
		return nil, fmt.Errorf("open lock file: %w", err)
	}
	st, err := f.Stat()
	if err != nil || !st.Mode().IsRegular() {
		f.Close()
		return nil, fmt.Errorf("lock file %s is not a regular file: remove it", path)
	}
	return f, nil
}

// readHolder reads who holds the lock; a holder that has not written yet (or is
// writing) is the zero Holder.
func readHolder(f *os.File) Holder {
	buf := make([]byte, maxHolderBytes)
	n, _ := f.ReadAt(buf, 0)
	var h Holder
	if json.Unmarshal(buf[:n], &h) != nil {
		return Holder{}
	}
	return h
}

// Update rewrites who holds the lock (once the holder listens, with its URL).
func (l *Lock) Update(h Holder) error {
	data, err := json.Marshal(h)
	if err != nil {
		return err
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.f == nil {
		return errors.New("the state folder's lock was released")
	}
	if err := l.f.Truncate(0); err != nil {
		return fmt.Errorf("write lock file: %w", err)
	}
	if _, err := l.f.WriteAt(append(data, '\n'), 0); err != nil {
		return fmt.Errorf("write lock file: %w", err)
	}
	return nil
}

// Release empties the lock file and lets it go. The file stays: were it removed, a
// process that had opened it and one that creates a new one could both hold "the"
// lock. It may be called more than once.
func (l *Lock) Release() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.f == nil {
		return
	}
	_ = l.f.Truncate(0)
	_ = l.f.Close() // closing the last descriptor releases the flock
	l.f = nil
}
