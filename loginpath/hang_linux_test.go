//go:build linux

package loginpath

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"
)

// A shell that hangs is stopped with everything it started: the shell and the child
// it left in the background are gone (their pidfds say they exited) once Resolve
// returns.
func TestHangingShellIsKilledWhole(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "pids")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	sh := fakeShell(t, "bash", "sleep 1000 &\necho $$ $! > '"+fifo+"'\nwait\n")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan Result, 1)
	go func() { done <- opts(t, sh).Resolve(ctx) }()

	b, err := os.ReadFile(fifo) // until the shell has written both pids
	if err != nil {
		t.Fatal(err)
	}
	var pidfds []int
	for _, f := range strings.Fields(string(b)) {
		pid, err := strconv.Atoi(f)
		if err != nil {
			t.Fatalf("pids %q", b)
		}
		fd, err := unix.PidfdOpen(pid, 0)
		if err != nil {
			t.Fatalf("pidfd of %d: %v", pid, err)
		}
		defer unix.Close(fd)
		pidfds = append(pidfds, fd)
	}
	if len(pidfds) != 2 {
		t.Fatalf("pids %q", b)
	}
	cancel()
	r := <-done
	if r.From != Inherited || !strings.Contains(r.Why, "stopped before it answered") {
		t.Fatalf("got %+v", r)
	}
	for i, fd := range pidfds {
		// A pidfd is readable once its process has exited; a long bound, for a busy machine.
		fds := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}
		for {
			n, err := unix.Poll(fds, 30_000)
			if err == unix.EINTR {
				continue
			}
			if err != nil || n != 1 {
				t.Fatalf("process %d of %q still runs (%v)", i, b, err)
			}
			break
		}
	}
}
