// Package regular opens and reads the files Wisp keeps or is given (its settings, its
// API token, its database, the autostart entry, a user's emotes) so that
// whatever is found at the path instead of a regular file is refused at once and
// named: a named pipe with no writer would hold an ordinary open or read forever, a
// device can be read without end, and a folder or a socket cannot be read at all. It
// owns the one way to do that: look first (stat, never opening what is not a regular
// file), open without blocking, check again on the open file (fstat: what was opened
// is what is read), and read at most a bound.
//
// Whether a symbolic link at the path is followed is the caller's decision (Links),
// made per file and explained there.
//
// It imports nothing of Wisp.
package regular

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"syscall"
)

// Links says what to do with a symbolic link at the path itself (links in the folders
// above it are always followed).
type Links uint8

const (
	// Follow opens what the link points to, which must be a regular file. A link to
	// nothing is never created through: see NotRegularError.Dangling.
	Follow Links = iota
	// NoFollow refuses a link (O_NOFOLLOW, so a link swapped in after the look is
	// refused too).
	NoFollow
)

// NotRegularError is the refusal of a path that is not a regular file.
type NotRegularError struct {
	Path     string
	Mode     fs.FileMode // the type bits of what is there
	Dangling bool        // a link to nothing, refused where a file would be created
}

func (e *NotRegularError) Error() string {
	return fmt.Sprintf("%s is %s, not a regular file", e.Path, e.What())
}

// What names what is at the path: "a named pipe", "a folder", ...
func (e *NotRegularError) What() string {
	m := e.Mode
	switch {
	case e.Dangling:
		return "a symbolic link to nothing"
	case m.IsDir():
		return "a folder"
	case m&fs.ModeSymlink != 0:
		return "a symbolic link"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeDevice != 0:
		return "a device"
	}
	return "a special file"
}

// TooLargeError is the refusal of a regular file larger than what its reader takes.
type TooLargeError struct {
	Path  string
	Limit int64 // bytes
}

func (e *TooLargeError) Error() string {
	return fmt.Sprintf("%s is larger than %s", e.Path, Size(e.Limit))
}

// Size writes a byte count the way the errors do: "4 MiB", "1 KiB", "300 bytes".
func Size(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}

// Check says whether path is a regular file without opening it, for files Wisp does
// not open itself (SQLite's journals): nil for a regular file, a *NotRegularError for
// anything else, and the error of the look (fs.ErrNotExist for nothing) otherwise.
func Check(path string, links Links) error {
	st, err := look(path, links)
	if err != nil {
		return err
	}
	if !st.Mode().IsRegular() {
		return &NotRegularError{Path: path, Mode: st.Mode().Type()}
	}
	return nil
}

// Open opens path with flag (os.O_RDONLY, os.O_RDWR, ..., with os.O_CREATE to make a
// missing file with perm) if it is a regular file, and refuses anything else with a
// *NotRegularError, never blocking on what it finds. A missing file (without
// os.O_CREATE) is an error that wraps fs.ErrNotExist.
func Open(path string, flag int, perm fs.FileMode, links Links) (*os.File, error) {
	st, err := look(path, links)
	switch {
	case err == nil && !st.Mode().IsRegular():
		return nil, &NotRegularError{Path: path, Mode: st.Mode().Type()}
	case errors.Is(err, fs.ErrNotExist) && flag&os.O_CREATE != 0 && links == Follow:
		if lst, lerr := os.Lstat(path); lerr == nil && lst.Mode()&fs.ModeSymlink != 0 {
			return nil, &NotRegularError{Path: path, Mode: fs.ModeSymlink, Dangling: true}
		}
	case err != nil && !errors.Is(err, fs.ErrNotExist):
		return nil, err
	}
	flag |= syscall.O_NONBLOCK | syscall.O_NOCTTY
	if links == NoFollow {
		flag |= syscall.O_NOFOLLOW
	}
	f, err := os.OpenFile(path, flag, perm)
	if err != nil {
		return nil, refusal(path, links, err)
	}
	st, err = f.Stat()
	if err == nil && !st.Mode().IsRegular() { // swapped in since the look
		err = &NotRegularError{Path: path, Mode: st.Mode().Type()}
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// ReadFile reads the regular file at path, of at most limit bytes: a larger one is
// refused with a *TooLargeError, without reading more than limit+1 bytes of it.
func ReadFile(path string, limit int64, links Links) ([]byte, error) {
	f, err := Open(path, os.O_RDONLY, 0, links)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if st, err := f.Stat(); err == nil && st.Size() > limit {
		return nil, &TooLargeError{Path: path, Limit: limit}
	}
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > limit { // it grew since the fstat
		return nil, &TooLargeError{Path: path, Limit: limit}
	}
	return data, nil
}

// look is stat or lstat, as links says.
func look(path string, links Links) (fs.FileInfo, error) {
	if links == NoFollow {
		return os.Lstat(path)
	}
	return os.Stat(path)
}

// refusal turns the failed open of something swapped in since the look (a link under
// O_NOFOLLOW, a socket, a FIFO opened for writing only) into a *NotRegularError when
// a second look finds one; other errors stay as they are.
func refusal(path string, links Links, err error) error {
	if errors.Is(err, fs.ErrNotExist) {
		return err
	}
	if st, lerr := look(path, links); lerr == nil && !st.Mode().IsRegular() {
		return &NotRegularError{Path: path, Mode: st.Mode().Type()}
	}
	return err
}
