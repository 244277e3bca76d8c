package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"time"

	"github.com/creack/pty"
	"golang.org/x/sys/unix"
)

// floorBuf is the read size of the floors: one read per 32 KiB, as Wisp's pump
// reads at most 32 KiB per event.
const floorBuf = 32 << 10

// benchShell is the shell the floors run commands with: the one Wisp's
// terminal picks (terminal.defaultShell), so both start the same programs.
func benchShell() string {
	if sh := os.Getenv("SHELL"); filepath.IsAbs(sh) {
		if st, err := os.Stat(sh); err == nil && !st.IsDir() {
			return sh
		}
	}
	return "/bin/sh"
}

// openFloorPTY opens a bare pseudo-terminal of Wisp's benchmark size. With
// rawOutput the line discipline's output processing (OPOST, and so ONLCR) is
// off, as Wisp does for captured runs. The master stays in blocking mode: a
// goroutine blocked in read(2) is the cheapest way to wait for output.
func openFloorPTY(rawOutput bool) (master, tty *os.File, err error) {
	master, tty, err = pty.Open()
	if err != nil {
		return nil, nil, fmt.Errorf("floor: open pty: %w", err)
	}
	fail := func(e error) (*os.File, *os.File, error) {
		master.Close()
		tty.Close()
		return nil, nil, e
	}
	if err := pty.Setsize(master, &pty.Winsize{Cols: cols, Rows: rows}); err != nil {
		return fail(fmt.Errorf("floor: set pty size: %w", err))
	}
	if rawOutput {
		fd := int(master.Fd())
		tio, err := unix.IoctlGetTermios(fd, unix.TCGETS)
		if err != nil {
			return fail(fmt.Errorf("floor: read pty modes: %w", err))
		}
		tio.Oflag &^= unix.OPOST
		if err := unix.IoctlSetTermios(fd, unix.TCSETS, tio); err != nil {
			return fail(fmt.Errorf("floor: set pty modes: %w", err))
		}
	}
	return master, tty, nil
}

// startOnTTY starts shell -c command with the terminal as its stdin, stdout,
// stderr and controlling terminal, in its own session (as Wisp starts a run,
// except that Wisp sends stderr to a pipe), and closes the parent's copy of
// the terminal so that the master reads EIO once the command is gone.
func startOnTTY(command string, tty *os.File) (*exec.Cmd, error) {
	cmd := exec.Command(benchShell(), "-c", command)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = tty, tty, tty
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true, Ctty: 0}
	err := cmd.Start()
	tty.Close()
	return cmd, err
}

// isEndOfPTY reports whether a master read error means the other side is gone.
func isEndOfPTY(err error) bool {
	return errors.Is(err, syscall.EIO) || errors.Is(err, io.EOF) || errors.Is(err, os.ErrClosed)
}

// floorThroughput runs command on a bare PTY and reads the master with a
// 32 KiB buffer until EIO. It returns the bytes read and the time from just
// before the command was started to the end of its output (its exit status
// collected).
func floorThroughput(command string, rawOutput bool) (int64, time.Duration, error) {
	master, tty, err := openFloorPTY(rawOutput)
	if err != nil {
		return 0, 0, err
	}
	defer master.Close()
	buf := make([]byte, floorBuf)
	start := time.Now()
	cmd, err := startOnTTY(command, tty)
	if err != nil {
		return 0, 0, fmt.Errorf("floor: start %q: %w", command, err)
	}
	var total int64
	for {
		n, err := master.Read(buf)
		total += int64(n)
		if err != nil {
			if !isEndOfPTY(err) {
				_ = cmd.Process.Kill()
				_ = cmd.Wait()
				return total, 0, fmt.Errorf("floor: read: %w", err)
			}
			break
		}
	}
	werr := cmd.Wait()
	took := time.Since(start)
	if werr != nil {
		return total, took, fmt.Errorf("floor: %q: %w", command, werr)
	}
	return total, took, nil
}

// echoFloor is the keystroke floor: `cat` on a bare PTY in cooked mode, where
// the line discipline echoes every byte written to the master.
type echoFloor struct {
	master *os.File
	cmd    *exec.Cmd
	buf    []byte
}

func startEchoFloor() (*echoFloor, error) {
	master, tty, err := openFloorPTY(false)
	if err != nil {
		return nil, err
	}
	cmd, err := startOnTTY("cat", tty)
	if err != nil {
		master.Close()
		return nil, fmt.Errorf("floor: start cat: %w", err)
	}
	return &echoFloor{master: master, cmd: cmd, buf: make([]byte, 4096)}, nil
}

// roundTrip writes c to the master and reads until it comes back; it returns
// the time from the write to the read that brought it.
func (f *echoFloor) roundTrip(c byte) (time.Duration, error) {
	start := time.Now()
	if _, err := f.master.Write([]byte{c}); err != nil {
		return 0, fmt.Errorf("floor: write: %w", err)
	}
	n, err := f.master.Read(f.buf)
	took := time.Since(start)
	if err != nil {
		return 0, fmt.Errorf("floor: read echo: %w", err)
	}
	if n != 1 || f.buf[0] != c {
		return 0, fmt.Errorf("floor: typed %q, read back %q", c, f.buf[:n])
	}
	return took, nil
}

// newline ends the line that cat has been given (Enter), and reads until its
// echo ("\r\n") and cat's copy of the line (want bytes, then "\r\n") are back.
func (f *echoFloor) newline(typed int) error {
	if _, err := f.master.Write([]byte{'\r'}); err != nil {
		return fmt.Errorf("floor: write: %w", err)
	}
	for want := 2 + typed + 2; want > 0; {
		n, err := f.master.Read(f.buf)
		if err != nil {
			return fmt.Errorf("floor: read line: %w", err)
		}
		want -= n
	}
	return nil
}

func (f *echoFloor) stop() {
	_ = f.cmd.Process.Kill()
	_ = f.cmd.Wait()
	f.master.Close()
}

// cpuTimes is the CPU time (user + system) used so far by this process (Wisp,
// the client and the floors' readers) and by its waited-for descendants (the
// commands).
type cpuTimes struct{ self, children time.Duration }

func cpuNow() cpuTimes {
	var self, kids syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &self)
	_ = syscall.Getrusage(syscall.RUSAGE_CHILDREN, &kids)
	tv := func(t syscall.Timeval) time.Duration { return time.Duration(t.Nano()) }
	return cpuTimes{tv(self.Utime) + tv(self.Stime), tv(kids.Utime) + tv(kids.Stime)}
}

// since is the CPU time used since c: this process's and the commands'.
func (c cpuTimes) since() cpuTimes {
	now := cpuNow()
	return cpuTimes{now.self - c.self, now.children - c.children}
}
