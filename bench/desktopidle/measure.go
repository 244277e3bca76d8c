package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"
)

// readyLine is what Wisp logs once the page in its window has reached the API
// and the socket and painted (scripts/desktop-smoke.sh waits for the same).
const readyLine = `msg="ui ready" api=true ws=true painted=true origin=wails://wails`

// startedLine starts the log line that names the API's URL: msg="wisp started" url=http://….
const startedLine = `msg="wisp started" url=`

// avatarLine is what the page reports once its character of that kind (builtin, vrm) is shown.
func avatarLine(kind string) string { return `msg="ui report" event=avatar-loaded detail=` + kind }

// apiToken is the API token the driver gives the binary (WISP_API_TOKEN) when it must call the API.
const apiToken = "desktopidle-bench-token"

const (
	readyTimeout = 120 * time.Second
	windowWait   = 20 * time.Second
	exitTimeout  = 15 * time.Second
)

// phase is one stretch of a run in which CPU time is counted.
type phase int

const (
	visible phase = iota // window mapped, avatar idling
	hidden               // window unmapped (iconified)
	shown                // mapped again after being hidden: rendering must resume
	phases
)

func (p phase) String() string { return [...]string{"visible", "hidden", "shown again"}[p] }

// target is one desktop binary under test.
type target struct {
	name, path string
	vrm        string // a VRM file to upload as the character once the page painted; empty: the built-in one
	checked    bool   // measured against the targets (a --baseline is not)
	runs       []*runResult
}

// runResult is one measured run of a target, from exec to exit.
type runResult struct {
	cpu     [phases]usage
	seconds [phases]float64 // wall time of each phase's window
	xvfb    [phases]int64   // the X server's ticks in the same windows
	mem     [phases]memory  // read at the end of visible and hidden
	procs   int             // processes in the tree at the end of the visible phase
	ready   time.Duration   // exec → the page's "ui ready … painted=true"
	clean   bool            // closed like a user closes it, exit status 0
	exitMsg string
}

// measureOnce starts t's binary in the display with a fresh state directory
// and home, waits for the page to paint, lets it settle, then counts the CPU
// time of the binary and all its descendants in each phase.
func measureOnce(ctx context.Context, cfg config, x *xvfb, t *target, dir, logPath string) (*runResult, error) {
	state, home := filepath.Join(dir, "state"), filepath.Join(dir, "home")
	for _, d := range []string{state, home} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			return nil, err
		}
	}
	logFile, err := os.Create(logPath)
	if err != nil {
		return nil, err
	}
	defer logFile.Close()
	ready, started := newLineWatch(readyLine), newLineWatch(startedLine)
	kind := "builtin"
	if t.vrm != "" {
		kind = "vrm"
	}
	avatar := newLineWatch(avatarLine(kind) + " ")
	out := io.MultiWriter(logFile, ready, started, avatar)

	token := ""
	if t.vrm != "" {
		token = apiToken
	}
	cmd := exec.Command(t.path, "--port", "0")
	cmd.Env = childEnv(x.display, state, home, token)
	cmd.Stdout, cmd.Stderr = out, out
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("%s: start: %w", t.name, err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	pid := cmd.Process.Pid
	fail := func(format string, a ...any) (*runResult, error) {
		_ = syscall.Kill(-pid, syscall.SIGKILL)
		<-exited
		return nil, fmt.Errorf("%s: %s\n--- log (tail) ---\n%s", t.name, fmt.Sprintf(format, a...), tail(logPath, 4<<10))
	}

	res := &runResult{}
	select {
	case <-ready.seen:
		res.ready = time.Since(start)
	case err := <-exited:
		exited <- err
		return fail("exited before the page reported it painted: %v", err)
	case <-time.After(readyTimeout):
		return fail("no %q within %v", readyLine, readyTimeout)
	case <-ctx.Done():
		return fail("%v", ctx.Err())
	}
	if err := waitWindowState(ctx, x.display, "viewable", windowWait); err != nil {
		return fail("%v", err)
	}
	if t.vrm != "" {
		url, err := startedURL(started.line())
		if err != nil {
			return fail("%v", err)
		}
		if err := uploadVRM(ctx, url, t.vrm); err != nil {
			return fail("%v", err)
		}
	}
	select {
	case <-avatar.seen:
	case err := <-exited:
		exited <- err
		return fail("exited before the page showed its %s character: %v", kind, err)
	case <-time.After(readyTimeout):
		return fail("no %q within %v", avatarLine(kind), readyTimeout)
	case <-ctx.Done():
		return fail("%v", ctx.Err())
	}
	fmt.Fprintf(os.Stderr, "  %s: page painted after %.1f s, its %s character shown; settling %v\n", t.name, res.ready.Seconds(), kind, cfg.settle)
	if err := sleep(ctx, exited, cfg.settle); err != nil {
		return fail("%v", err)
	}

	count := func(p phase, d time.Duration) error {
		before, err := treeSnapshot(pid)
		if err != nil {
			return err
		}
		xBefore := processTicks(x.pid())
		t0 := time.Now()
		if err := sleep(ctx, exited, d); err != nil {
			return err
		}
		after, err := treeSnapshot(pid)
		if err != nil {
			return err
		}
		res.seconds[p] = time.Since(t0).Seconds()
		res.cpu[p] = cpuBetween(before, after)
		res.xvfb[p] = processTicks(x.pid()) - xBefore
		if p == visible {
			res.procs = len(after)
		}
		if p != shown {
			if res.mem[p], err = treeMemory(after); err != nil {
				return err
			}
		}
		fmt.Fprintf(os.Stderr, "  %s: %s: %.1f%% of one core over %.0f s\n", t.name, p,
			share(res.cpu[p].total, res.seconds[p], cfg.ticks), res.seconds[p])
		return nil
	}
	if err := count(visible, cfg.window); err != nil {
		return fail("%v", err)
	}
	if _, err := xwindow(ctx, x.display, "hide"); err != nil {
		return fail("%v", err)
	}
	if err := waitWindowState(ctx, x.display, "unmapped", windowWait); err != nil {
		return fail("%v", err)
	}
	if err := sleep(ctx, exited, cfg.hiddenSettle); err != nil {
		return fail("%v", err)
	}
	if err := count(hidden, cfg.window); err != nil {
		return fail("%v", err)
	}
	if _, err := xwindow(ctx, x.display, "show"); err != nil {
		return fail("%v", err)
	}
	if err := waitWindowState(ctx, x.display, "viewable", windowWait); err != nil {
		return fail("%v", err)
	}
	if err := count(shown, cfg.shownWindow); err != nil {
		return fail("%v", err)
	}

	res.clean, res.exitMsg = closeWindow(ctx, x.display, pid, exited)
	return res, nil
}

// closeWindow closes the window as a user does and waits for the exit; SIGTERM,
// then SIGKILL, if it does not come. It reports whether the exit was clean.
func closeWindow(ctx context.Context, display string, pid int, exited chan error) (bool, string) {
	wait := func() (error, bool) {
		select {
		case err := <-exited:
			return err, true
		case <-time.After(exitTimeout):
			return nil, false
		}
	}
	if _, err := xwindow(ctx, display, "close"); err != nil {
		_ = syscall.Kill(pid, syscall.SIGTERM)
	}
	err, done := wait()
	if !done {
		_ = syscall.Kill(pid, syscall.SIGTERM)
		if err, done = wait(); !done {
			_ = syscall.Kill(-pid, syscall.SIGKILL)
			<-exited
			return false, "still running after close and SIGTERM; killed"
		}
		return false, fmt.Sprintf("needed SIGTERM after close (%v)", err)
	}
	if err != nil {
		return false, fmt.Sprintf("exit after close: %v", err)
	}
	return true, ""
}

// sleep waits d, failing early if the process exits or ctx ends.
func sleep(ctx context.Context, exited chan error, d time.Duration) error {
	select {
	case err := <-exited:
		exited <- err
		return fmt.Errorf("exited while being measured: %v", err)
	case <-ctx.Done():
		return ctx.Err()
	case <-time.After(d):
		return nil
	}
}

// processTicks is one process's utime+stime, or 0 when it cannot be read.
func processTicks(pid int) int64 {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0
	}
	s, err := parseStat(string(b))
	if err != nil {
		return 0
	}
	return s.ticks
}

// share is ticks over seconds as a percentage of one core.
func share(ticks int64, seconds float64, perSecond int64) float64 {
	if seconds <= 0 {
		return 0
	}
	return 100 * float64(ticks) / float64(perSecond) / seconds
}

// childEnv is the driver's environment for Wisp: the display, a fresh state
// directory and a fresh home (so WebKit's storage and caches start empty, as on
// a first launch), the API token given ("": none, Wisp makes its own), and no
// other WISP_* or XDG_* variables.
func childEnv(display, state, home, token string) []string {
	env := []string{"DISPLAY=" + display, "HOME=" + home, "WISP_STATE_DIR=" + state, "WISP_API_TOKEN=" + token}
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		switch {
		case name == "DISPLAY" || name == "HOME" || name == "WAYLAND_DISPLAY":
		case strings.HasPrefix(name, "WISP_") || strings.HasPrefix(name, "XDG_"):
		default:
			env = append(env, kv)
		}
	}
	return env
}

// lineWatch is an io.Writer that closes seen once a line containing want was
// written, and keeps that line.
type lineWatch struct {
	want  string
	seen  chan struct{}
	mu    sync.Mutex
	buf   []byte
	done  bool
	found string
}

// line is the first line that contained want ("" before seen is closed).
func (w *lineWatch) line() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.found
}

func newLineWatch(want string) *lineWatch {
	return &lineWatch{want: want, seen: make(chan struct{})}
}

func (w *lineWatch) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.done {
		return len(p), nil
	}
	w.buf = append(w.buf, p...)
	for {
		i := bytes.IndexByte(w.buf, '\n')
		if i < 0 {
			break
		}
		line := string(w.buf[:i])
		w.buf = w.buf[i+1:]
		if strings.Contains(line, w.want) {
			w.done = true
			w.found = line
			w.buf = nil
			close(w.seen)
			break
		}
	}
	return len(p), nil
}

// tail is the last max bytes of the file at path.
func tail(path string, max int64) string {
	f, err := os.Open(path)
	if err != nil {
		return err.Error()
	}
	defer f.Close()
	if fi, err := f.Stat(); err == nil && fi.Size() > max {
		_, _ = f.Seek(-max, io.SeekEnd)
	}
	var b strings.Builder
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		b.WriteString(sc.Text())
		b.WriteByte('\n')
	}
	if err := sc.Err(); err != nil && !errors.Is(err, io.EOF) {
		b.WriteString(err.Error())
	}
	return strings.TrimRight(b.String(), "\n")
}
