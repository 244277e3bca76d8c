package main

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"time"
)

// screen is the virtual display's size, as in scripts/desktop-smoke.sh.
const screen = "1280x800x24"

// windowName is the title of Wisp's window.
const windowName = "Wisp"

// xwindowScript is the X11 helper the smoke test uses too, run from the repo root.
const xwindowScript = "scripts/x11-window.py"

// python is the system interpreter, which has python3-xlib (scripts/deps.sh).
const python = "/usr/bin/python3"

// xvfb is a virtual X display this driver started.
type xvfb struct {
	display string
	cmd     *exec.Cmd
}

// startXvfb starts Xvfb on a free display number, which it reports through -displayfd.
func startXvfb(ctx context.Context) (*xvfb, error) {
	r, w, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	defer r.Close()
	cmd := exec.Command("Xvfb", "-screen", "0", screen, "-nolisten", "tcp", "-displayfd", "3")
	cmd.ExtraFiles = []*os.File{w}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	if err := cmd.Start(); err != nil {
		w.Close()
		return nil, fmt.Errorf("start Xvfb (apt-get install xvfb, or scripts/deps.sh): %w", err)
	}
	w.Close()
	got := make(chan string, 1)
	go func() {
		line, _ := bufio.NewReader(r).ReadString('\n')
		got <- strings.TrimSpace(line)
	}()
	select {
	case n := <-got:
		if n == "" {
			_ = cmd.Process.Kill()
			_ = cmd.Wait()
			return nil, fmt.Errorf("Xvfb exited without naming its display")
		}
		return &xvfb{display: ":" + n, cmd: cmd}, nil
	case <-time.After(30 * time.Second):
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		return nil, fmt.Errorf("Xvfb named no display within 30 s")
	case <-ctx.Done():
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		return nil, ctx.Err()
	}
}

// pid is the X server's process id, or 0 when this driver did not start it.
func (x *xvfb) pid() int {
	if x.cmd == nil {
		return 0
	}
	return x.cmd.Process.Pid
}

func (x *xvfb) stop() {
	_ = x.cmd.Process.Signal(syscall.SIGTERM)
	done := make(chan struct{})
	go func() { _ = x.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		_ = x.cmd.Process.Kill()
		<-done
	}
}

// xwindow runs scripts/x11-window.py (hide, show, close, state) on the window
// named windowName of display, and returns what it printed.
func xwindow(ctx context.Context, display, cmd string) (string, error) {
	c := exec.CommandContext(ctx, python, xwindowScript, cmd, windowName)
	c.Env = append(os.Environ(), "DISPLAY="+display)
	out, err := c.CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("xwindow %s: %w: %s", cmd, err, strings.TrimSpace(string(out)))
	}
	return strings.TrimSpace(string(out)), nil
}

// waitWindowState waits until the window is "viewable" or "unmapped".
func waitWindowState(ctx context.Context, display, want string, timeout time.Duration) error {
	deadline := time.Now().Add(timeout)
	last := ""
	for {
		got, err := xwindow(ctx, display, "state")
		if err == nil && got == want {
			return nil
		}
		if err != nil {
			last = err.Error()
		} else {
			last = got
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("window %q not %s within %v (last: %s)", windowName, want, timeout, last)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(200 * time.Millisecond):
		}
	}
}
