// Package regulartest puts odd things where a test's code expects a small regular
// file (a named pipe, a folder, a socket, a link to an endless device, a huge file)
// and runs the code under a deadline, so a read that blocks fails the test instead
// of hanging it. It is for tests only.
//
// It imports nothing of Wisp.
package regulartest

import (
	"fmt"
	"net"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// Odd is something other than a small regular file, made at a path.
type Odd struct {
	Name string
	Make func(t testing.TB, path string)
}

// HugeSize is the size of Huge's file: larger than any file Wisp reads whole, and
// sparse, so it costs no disk.
const HugeSize = 1 << 30

// The odd things.
var (
	FIFO   = Odd{"a FIFO", func(t testing.TB, path string) { check(t, syscall.Mkfifo(path, 0o600)) }}
	Folder = Odd{"a folder", func(t testing.TB, path string) { check(t, os.Mkdir(path, 0o700)) }}
	Socket = Odd{"a socket", makeSocket}
	// DevZero is a symbolic link to /dev/zero, which reads without end.
	DevZero = Odd{"a link to /dev/zero", func(t testing.TB, path string) { check(t, os.Symlink("/dev/zero", path)) }}
	// Huge is a regular file of HugeSize bytes.
	Huge = Odd{"a huge file", func(t testing.TB, path string) {
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		check(t, err)
		check(t, f.Truncate(HugeSize))
		check(t, f.Close())
	}}
)

// makeSocket listens on a Unix socket at path until the test ends. The socket is made
// in a short folder and moved: a socket's path must fit in 108 bytes.
func makeSocket(t testing.TB, path string) {
	dir, err := os.MkdirTemp("", "sock")
	check(t, err)
	t.Cleanup(func() { os.RemoveAll(dir) })
	short := filepath.Join(dir, "s")
	ln, err := net.Listen("unix", short)
	check(t, err)
	t.Cleanup(func() { ln.Close() })
	check(t, os.Rename(short, path))
}

func check(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// Deadline bounds ReturnsSoon: not a speed claim, a bound on a call that blocks.
const Deadline = 10 * time.Second

// ReturnsSoon runs f and returns its error, or ends the test binary if f has not
// returned within Deadline: a call blocked on a FIFO (or reading without end) cannot
// be stopped from here, and would hang the test run.
func ReturnsSoon(t testing.TB, what string, f func() error) error {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- f() }()
	select {
	case err := <-done:
		return err
	case <-time.After(Deadline):
		panic(fmt.Sprintf("%s did not return within %v: it blocks, or reads without end", what, Deadline))
	}
}
