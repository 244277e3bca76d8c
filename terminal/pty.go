package terminal

import (
	"fmt"
	"os"

	"github.com/creack/pty"
	"golang.org/x/sys/unix"
)

// openPTY opens a pseudo-terminal of the given size. The master it returns is in
// non-blocking mode, so reads park in the runtime's poller: read deadlines work (the
// output batching uses them) and Close interrupts a pending Read. With rawOutput the
// line discipline's output processing is off, so "\n" is not turned into "\r\n".
func openPTY(cols, rows int, rawOutput bool) (master, tty *os.File, err error) {
	ptmx, tty, err := pty.Open()
	if err != nil {
		return nil, nil, fmt.Errorf("open pty: %w", err)
	}
	defer ptmx.Close() // replaced by the non-blocking duplicate below
	fail := func(e error) (*os.File, *os.File, error) {
		tty.Close()
		return nil, nil, e
	}
	if err := pty.Setsize(ptmx, &pty.Winsize{Cols: uint16(cols), Rows: uint16(rows)}); err != nil {
		return fail(fmt.Errorf("set pty size: %w", err))
	}
	fd := int(ptmx.Fd()) // creack/pty's master is already in blocking mode
	if rawOutput {
		tio, err := unix.IoctlGetTermios(fd, unix.TCGETS)
		if err != nil {
			return fail(fmt.Errorf("read pty modes: %w", err))
		}
		tio.Oflag &^= unix.OPOST
		if err := unix.IoctlSetTermios(fd, unix.TCSETS, tio); err != nil {
			return fail(fmt.Errorf("set pty modes: %w", err))
		}
	}
	dup, err := unix.FcntlInt(uintptr(fd), unix.F_DUPFD_CLOEXEC, 0)
	if err != nil {
		return fail(fmt.Errorf("dup pty: %w", err))
	}
	if err := unix.SetNonblock(dup, true); err != nil {
		unix.Close(dup)
		return fail(fmt.Errorf("pty non-blocking: %w", err))
	}
	return os.NewFile(uintptr(dup), "/dev/ptmx"), tty, nil
}

// setSize resizes the terminal without touching the master's blocking mode (which
// File.Fd would); the kernel sends SIGWINCH to the foreground process group.
func setSize(master *os.File, cols, rows int) error {
	sc, err := master.SyscallConn()
	if err != nil {
		return err
	}
	var ioctlErr error
	err = sc.Control(func(fd uintptr) {
		ioctlErr = unix.IoctlSetWinsize(int(fd), unix.TIOCSWINSZ, &unix.Winsize{Col: uint16(cols), Row: uint16(rows)})
	})
	if err != nil {
		return err
	}
	return ioctlErr
}
