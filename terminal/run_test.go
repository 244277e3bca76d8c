package terminal

import (
	"errors"
	"os"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"golang.org/x/sys/unix"
)

func TestRunOutput(t *testing.T) {
	m, rec := newTestManager(t, Options{})
	tests := []struct {
		name    string
		spec    Spec
		stdout  string // must be contained in stdout
		stderr  string // must equal stderr
		code    int
		noStart bool
	}{
		{name: "echo", spec: Spec{Command: "echo hello"}, stdout: "hello\r\n"},
		{name: "stdout is a terminal", spec: Spec{Command: "test -t 1 && echo tty"}, stdout: "tty"},
		{name: "stderr is a pipe", spec: Spec{Command: "test -t 2 || echo pipe >&2"}, stderr: "pipe\n"},
		{name: "colours pass through", spec: Spec{Command: `printf '\033[31mred\033[0m\n'`}, stdout: "\x1b[31mred\x1b[0m\r\n"},
		{name: "stderr", spec: Spec{Command: "echo oops >&2; echo fine"}, stdout: "fine", stderr: "oops\n"},
		{name: "captured output keeps plain newlines", spec: Spec{Command: "printf 'a\\nb\\n'", Capture: true}, stdout: "a\nb\n"},
		{name: "exit code", spec: Spec{Command: "exit 3"}, code: 3},
		{name: "killed by SIGKILL", spec: Spec{Command: "kill -KILL $$"}, code: 128 + 9},
		{name: "killed by SIGTERM", spec: Spec{Command: "kill -TERM $$"}, code: 128 + 15},
		{name: "terminal type", spec: Spec{Command: "echo $TERM"}, stdout: "xterm-256color"},
		{name: "size", spec: Spec{Command: "stty size", Cols: 99, Rows: 33}, stdout: "33 99"},
		{name: "a run's own folder", spec: Spec{Command: "pwd", Dir: "/usr/bin"}, stdout: "/usr/bin\r\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := start(t, m, tt.spec)
			exit := wait(t, rec, r)
			if exit.Kind != KindExit || exit.Code != tt.code {
				t.Fatalf("ended with %+v, want exit %d", exit, tt.code)
			}
			if out := rec.text(r.ID(), KindStdout); !strings.Contains(out, tt.stdout) {
				t.Errorf("stdout %q does not contain %q", out, tt.stdout)
			}
			if errOut := rec.text(r.ID(), KindStderr); errOut != tt.stderr {
				t.Errorf("stderr %q, want %q", errOut, tt.stderr)
			}
			checkSequence(t, rec.of(r.ID()), tt.spec.Command)
		})
	}
}

// checkSequence: start first, numbered 1, 2, 3…, exit last, nothing else but output.
func checkSequence(t *testing.T, evs []Event, command string) {
	t.Helper()
	if len(evs) < 2 || evs[0].Kind != KindStart || evs[0].Command != command {
		t.Fatalf("first event %+v, want start of %q", evs[0], command)
	}
	for i, e := range evs {
		if e.Seq != int64(i+1) {
			t.Fatalf("event %d has seq %d", i, e.Seq)
		}
		inner := e.Kind == KindStdout || e.Kind == KindStderr || e.Kind == KindTimeout
		if i > 0 && i < len(evs)-1 && !inner {
			t.Fatalf("event %d is %q in the middle of the run", i, e.Kind)
		}
	}
}

// The time limit ends a run with 124 and a timeout event.
func TestTimeoutEndsTheRun(t *testing.T) {
	m, rec := newTestManager(t, Options{MaxDuration: 300 * time.Millisecond})
	r := start(t, m, Spec{Command: "sleep 1000"})
	if exit := wait(t, rec, r); exit.Code != ExitTimeout {
		t.Fatalf("exit code %d, want 124", exit.Code)
	}
	evs := rec.of(r.ID())
	if i := slices.IndexFunc(evs, func(e Event) bool { return e.Kind == KindTimeout }); i < 0 || evs[i].MaxDurationMs != 300 {
		t.Fatalf("no timeout event with maxDurationMs 300: %+v", evs)
	}
}

// A run that runs out of time takes its whole session down, a child that ignores
// SIGTERM and one in a process group of its own included. The test lets the time run
// out (the timer's own call) once the command has started its child, so a busy
// machine cannot make it fire before.
func TestTimeoutKillsTheGroup(t *testing.T) {
	m, rec := newTestManager(t, Options{MaxDuration: time.Hour, KillGrace: 200 * time.Millisecond})
	for _, cmd := range []string{
		"sleep 1000 & echo $!; wait",                     // dies of SIGTERM
		"trap '' TERM; sleep 1000 & echo $!; wait; wait", // needs the SIGKILL
		"set -m; sleep 1000 & echo $!; wait",             // a job in a process group of its own
	} {
		t.Run(cmd, func(t *testing.T) {
			r := start(t, m, Spec{Command: cmd})
			rec.waitFor(t, "the child's pid", func() bool { return strings.Contains(rec.text(r.ID(), KindStdout), "\n") })
			r.timeUp()
			exit := wait(t, rec, r)
			if exit.Code != ExitTimeout {
				t.Fatalf("exit code %d, want 124", exit.Code)
			}
			evs := rec.of(r.ID())
			if i := slices.IndexFunc(evs, func(e Event) bool { return e.Kind == KindTimeout }); i < 0 || evs[i].MaxDurationMs != time.Hour.Milliseconds() {
				t.Fatalf("no timeout event with the limit: %+v", evs)
			}
			child := firstLineInt(t, rec.text(r.ID(), KindStdout))
			waitGone(t, child, "the background child to die")
			if info := r.Info(); info.Status != StatusTimeout || *info.ExitCode != ExitTimeout {
				t.Fatalf("info %+v", info)
			}
			res := r.Result()
			if !res.TimedOut || res.OK || res.ExitCode != ExitTimeout {
				t.Fatalf("result %+v", res)
			}
		})
	}
}

func TestBackgroundChildDiesWithTheCommand(t *testing.T) {
	m, rec := newTestManager(t, Options{})
	r := start(t, m, Spec{Command: "sleep 1000 & echo $!"})
	if exit := wait(t, rec, r); exit.Code != 0 {
		t.Fatalf("exit %d", exit.Code)
	}
	child := firstLineInt(t, rec.text(r.ID(), KindStdout))
	waitGone(t, child, "the background child to die")

	// With job control the child gets a process group of its own: the session is killed.
	r = start(t, m, Spec{Command: "set -m; sleep 1000 & echo $!; cut -d' ' -f5 /proc/$!/stat; echo $$"})
	wait(t, rec, r)
	lines := strings.Fields(rec.text(r.ID(), KindStdout))
	if len(lines) != 3 || lines[1] == lines[2] {
		t.Fatalf("want the child's pid, its group and the shell's pid, all different groups: %q", lines)
	}
	child = firstLineInt(t, lines[0])
	waitGone(t, child, "the job-control child to die")
}

func TestSessionOf(t *testing.T) {
	sid, ok := sessionOf(os.Getpid())
	if want, _ := unix.Getsid(0); !ok || sid != want {
		t.Fatalf("sessionOf(self) = %d, %v; want %d", sid, ok, want)
	}
	if _, ok := sessionOf(1 << 30); ok {
		t.Fatal("a session for a process that does not exist")
	}
}

func TestConcurrencyLimit(t *testing.T) {
	m, rec := newTestManager(t, Options{MaxConcurrent: 1})
	first := start(t, m, Spec{Command: "sleep 1000"})
	if _, err := m.Start(Spec{Command: "true"}); !errors.Is(err, ErrBusy) {
		t.Fatalf("second run: %v, want ErrBusy", err)
	}
	if err := first.Kill(); err != nil {
		t.Fatal(err)
	}
	if exit := wait(t, rec, first); exit.Code != 128+15 {
		t.Fatalf("killed run exited %d, want 143", exit.Code)
	}
	if first.Info().Status != StatusKilled {
		t.Fatalf("status %q", first.Info().Status)
	}
	if err := first.Kill(); !errors.Is(err, ErrEnded) {
		t.Fatalf("kill after the end: %v", err)
	}
	wait(t, rec, start(t, m, Spec{Command: "true"}))
}

func TestInteractive(t *testing.T) {
	m, rec := newTestManager(t, Options{})
	r := start(t, m, Spec{Command: "read x; echo got:$x", Owner: "tab-1"})
	if err := r.Input("tab-2", "no\r"); !errors.Is(err, ErrNotOwner) {
		t.Fatalf("input from another client: %v", err)
	}
	if err := r.Input("tab-1", "hi\r"); err != nil {
		t.Fatal(err)
	}
	wait(t, rec, r)
	if out := rec.text(r.ID(), KindStdout); !strings.Contains(out, "got:hi") {
		t.Fatalf("stdout %q", out)
	}
	if err := r.Input("tab-1", "late\r"); !errors.Is(err, ErrEnded) {
		t.Fatalf("input after the end: %v", err)
	}
	agent := start(t, m, Spec{Command: "true"})
	if err := agent.Input("", "x"); !errors.Is(err, ErrNotOwner) {
		t.Fatalf("input into an agent run: %v", err)
	}
	wait(t, rec, agent)
}

func TestResize(t *testing.T) {
	m, rec := newTestManager(t, Options{})
	r := start(t, m, Spec{Command: "read x; stty size", Owner: "tab-1", Cols: 80, Rows: 24})
	if err := r.Resize("tab-1", 0, 10); err == nil {
		t.Fatal("accepted 0 columns")
	}
	if err := r.Resize("tab-2", 100, 40); !errors.Is(err, ErrNotOwner) {
		t.Fatalf("resize by another client: %v", err)
	}
	if err := r.Resize("tab-1", 100, 40); err != nil {
		t.Fatal(err)
	}
	if err := r.Input("tab-1", "\r"); err != nil {
		t.Fatal(err)
	}
	wait(t, rec, r)
	if out := rec.text(r.ID(), KindStdout); !strings.Contains(out, "40 100") {
		t.Fatalf("stty size printed %q, want 40 100", out)
	}
	if info := r.Info(); info.Cols != 100 || info.Rows != 40 {
		t.Fatalf("info size %d×%d", info.Cols, info.Rows)
	}
}

func TestMultibyteOutputStaysWhole(t *testing.T) {
	m, rec := newTestManager(t, Options{})
	// 3000 × 7 bytes: PTY reads of a few KiB end inside characters.
	r := start(t, m, Spec{Command: `i=0; while [ $i -lt 3000 ]; do printf '€😀'; i=$((i+1)); done`, Capture: true})
	wait(t, rec, r)
	for _, e := range rec.of(r.ID()) {
		if !utf8.ValidString(e.Data) {
			t.Fatalf("event %d splits a character: % x…", e.Seq, e.Data[:min(8, len(e.Data))])
		}
	}
	if got, want := rec.text(r.ID(), KindStdout), strings.Repeat("€😀", 3000); got != want {
		t.Fatalf("got %d bytes, want %d", len(got), len(want))
	}
}

func TestCapture(t *testing.T) {
	m, rec := newTestManager(t, Options{CaptureLimit: 1000})
	r := start(t, m, Spec{Command: "head -c 5000 /dev/zero | tr '\\0' a; echo err >&2; exit 2", Capture: true})
	wait(t, rec, r)
	res := r.Result()
	if len(res.Stdout) != 1000 || strings.Trim(res.Stdout, "a") != "" || !res.Truncated {
		t.Fatalf("stdout of %d bytes, truncated %v", len(res.Stdout), res.Truncated)
	}
	if res.Stderr != "err\n" || res.ExitCode != 2 || res.OK || res.TimedOut || res.RunID != r.ID() {
		t.Fatalf("result %+v", res)
	}
	uncaptured := start(t, m, Spec{Command: "echo hi"})
	wait(t, rec, uncaptured)
	if res := uncaptured.Result(); res.Stdout != "" || !res.OK {
		t.Fatalf("uncaptured result %+v", res)
	}
}

func TestScrollbackForALateSubscriber(t *testing.T) {
	m, rec := newTestManager(t, Options{Scrollback: 1000})
	r := start(t, m, Spec{Command: "head -c 3000 /dev/zero | tr '\\0' a; echo; echo mark; read x; echo after", Owner: "tab-1"})
	rec.waitFor(t, "the mark", func() bool { return strings.Contains(rec.text(r.ID(), KindStdout), "mark") })
	snap := r.Snapshot()
	var replay strings.Builder
	for _, c := range snap.Scrollback {
		replay.WriteString(c.Data)
	}
	if !snap.ScrollbackTruncated || replay.Len() != 1000 || !strings.HasSuffix(replay.String(), "mark\r\n") {
		t.Fatalf("scrollback: %d bytes, truncated %v, ends %q", replay.Len(), snap.ScrollbackTruncated, replay.String()[max(0, replay.Len()-10):])
	}
	if err := r.Input("tab-1", "\r"); err != nil {
		t.Fatal(err)
	}
	wait(t, rec, r)
	// The scrollback plus the events after LastSeq is the whole tail, nothing twice.
	for _, e := range rec.of(r.ID()) {
		if e.Seq > snap.LastSeq {
			replay.WriteString(e.Data)
		}
	}
	all := rec.text(r.ID(), KindStdout)
	if !strings.HasSuffix(all, replay.String()) || !strings.HasSuffix(replay.String(), "after\r\n") {
		t.Fatalf("scrollback + live = …%q, full output ends …%q", tail(replay.String()), tail(all))
	}
	if snap.Info.Status != StatusRunning || snap.Info.ExitCode != nil {
		t.Fatalf("snapshot info %+v", snap.Info)
	}
}

func tail(s string) string { return s[max(0, len(s)-20):] }

func TestSpawnFailure(t *testing.T) {
	m, rec := newTestManager(t, Options{Dir: "/nonexistent/wisp"})
	r := start(t, m, Spec{Command: "echo never"})
	last := wait(t, rec, r)
	if evs := rec.of(r.ID()); len(evs) != 1 || last.Kind != KindError || !strings.Contains(last.Data, "/nonexistent/wisp") {
		t.Fatalf("events %+v, want one error naming the folder", evs)
	}
	if info := r.Info(); info.Status != StatusError || *info.ExitCode != exitSpawnFailed || info.Error == "" {
		t.Fatalf("info %+v", info)
	}
	// The slot was given back.
	wait(t, rec, start(t, m, Spec{Command: "true"}))
}

func TestStopEndsEveryRun(t *testing.T) {
	rec := &recorder{}
	m := NewManager(Options{Sink: rec.sink, Dir: t.TempDir(), KillGrace: 100 * time.Millisecond, Logger: quiet})
	r := start(t, m, Spec{Command: "trap '' TERM; echo ready; sleep 1000"})
	rec.waitFor(t, "the trap", func() bool { return strings.Contains(rec.text(r.ID(), KindStdout), "ready") })
	m.Stop()
	select {
	case <-r.Done():
	default:
		t.Fatal("Stop returned before the run ended")
	}
	if info := r.Info(); info.Status != StatusKilled || *info.ExitCode != 128+9 {
		t.Fatalf("info %+v, exit code %d", info, *info.ExitCode)
	}
	if _, err := m.Start(Spec{Command: "true"}); !errors.Is(err, ErrStopped) {
		t.Fatalf("start after stop: %v", err)
	}
}

func TestListAndGet(t *testing.T) {
	m, rec := newTestManager(t, Options{KeepFinished: 2})
	var ids []string
	for i := range 3 {
		r := start(t, m, Spec{Command: "true", Owner: "tab-1"})
		wait(t, rec, r)
		ids = append(ids, r.ID())
		_ = i
	}
	list := m.List()
	if len(list) != 2 || list[0].RunID != ids[2] || list[1].RunID != ids[1] {
		t.Fatalf("list %+v, want the two newest, newest first", list)
	}
	if _, err := m.Get(ids[0]); !errors.Is(err, ErrNotFound) {
		t.Fatalf("oldest run still found: %v", err)
	}
	if r, err := m.Get(ids[2]); err != nil || r.Info().ClientID != "tab-1" {
		t.Fatalf("get: %v", err)
	}
}

// While the viewer is behind, output waits and the program pauses; nothing is lost.
func TestFlowControlPausesTheProgram(t *testing.T) {
	v := newViewer()
	m, rec := newTestManager(t, Options{Ready: v.ready, FlowStall: time.Minute})
	r := start(t, m, Spec{Command: "head -c 2000000 /dev/zero | tr '\\0' a; echo; echo done", Owner: "tab-1", Capture: true})
	// The output is waiting for the viewer, and the reading has stopped with the
	// outbox full: the 2 MB cannot all be out, and the program, whose writes fill the
	// terminal, cannot have ended.
	<-v.asked
	waitRun(t, r, "the outbox to fill", r.out.full)
	if got := len(rec.text(r.ID(), KindStdout)); got >= 2000000 || r.Info().Status != StatusRunning {
		t.Fatalf("%d bytes out and status %q while the viewer was behind", got, r.Info().Status)
	}
	v.catchUp()
	wait(t, rec, r)
	if out := rec.text(r.ID(), KindStdout); len(out) != 2000000+len("\ndone\n") {
		t.Fatalf("%d bytes after catching up", len(out))
	}
}

// A viewer that never catches up does not hold the run for longer than the stall.
func TestFlowControlGivesUpOnAStuckViewer(t *testing.T) {
	m, rec := newTestManager(t, Options{Ready: func(string) (bool, <-chan struct{}) { return false, nil }, FlowStall: 100 * time.Millisecond})
	r := start(t, m, Spec{Command: "head -c 1000000 /dev/zero | tr '\\0' a", Owner: "tab-1", Capture: true})
	if exit := wait(t, rec, r); exit.Code != 0 || len(rec.text(r.ID(), KindStdout)) != 1000000 {
		t.Fatalf("exit %+v", exit)
	}
}

// Output still waiting for a slow viewer when the command ends is delivered, however
// long the viewer takes (within the stall), not cut off by the drain timeout: a reader
// waiting for room in the outbox is not a quiet stream.
func TestOutputWaitingForAViewerOutlivesTheCommand(t *testing.T) {
	const drain = 200 * time.Millisecond
	v := newViewer()
	// The stall is long enough for a busy machine: only the viewer ends the wait.
	m, rec := newTestManager(t, Options{Ready: v.ready, DrainTimeout: drain, FlowStall: time.Minute})
	// An outbox of one byte: x waits for the viewer in it, the reader holds y and
	// waits for room, and the z's stay in the terminal (which holds over 12 kB)
	// while the command ends.
	m.outboxBytes = 1
	const zs = 8000
	r := start(t, m, Spec{Command: "printf x; sleep 0.1; printf y; sleep 0.1; head -c 8000 /dev/zero | tr '\\0' z", Owner: "tab-1", Capture: true})
	// The command ends (its shell is a zombie until the run is done) while its output
	// waits; then two drain periods pass in which a run that took the waiting reader
	// for a quiet one would have closed the terminal.
	waitGone(t, r.cmd.Process.Pid, "the command to end")
	select {
	case <-r.Done():
		t.Fatal("the run ended while its output waited for the viewer")
	case <-time.After(2 * drain):
	}
	v.catchUp()
	wait(t, rec, r)
	if out, want := rec.text(r.ID(), KindStdout), "xy"+strings.Repeat("z", zs); out != want {
		t.Fatalf("%d bytes delivered, want %d", len(out), len(want))
	}
}

// A process that left the session (a daemon) and still holds the terminal does not
// keep the run open.
func TestEscapedProcessDoesNotHoldTheRun(t *testing.T) {
	m, rec := newTestManager(t, Options{DrainTimeout: 200 * time.Millisecond})
	r := start(t, m, Spec{Command: "setsid sleep 1000 & echo $!"})
	if exit := wait(t, rec, r); exit.Code != 0 {
		t.Fatalf("exit %+v", exit)
	}
	escaped := firstLineInt(t, rec.text(r.ID(), KindStdout))
	_ = unix.Kill(escaped, unix.SIGKILL) // it escaped on purpose: clean up after the test
}

// A command that exits while a daemon it left (setsid) still holds the terminal is
// reported with its own exit status, even when the time limit passes while its
// output is being drained: the status was known before the drain began.
func TestExitBeforeTheLimitWinsOverTheDrain(t *testing.T) {
	const limit = 1500 * time.Millisecond
	dir := t.TempDir()
	m, rec := newTestManager(t, Options{Dir: dir, MaxDuration: limit, DrainTimeout: time.Minute, DrainLimit: 2 * time.Minute})
	began := time.Now()
	// The shell exits only once the daemon has left its session (and says so by
	// writing its pid), so the kill of the session at the exit cannot catch it.
	r := start(t, m, Spec{Command: "setsid sh -c 'echo $$ > pid.tmp && mv pid.tmp pid; exec sleep 30' & " +
		"while [ ! -e pid ]; do sleep 0.01; done; cat pid; exit 3"})
	rec.waitFor(t, "the daemon's pid", func() bool { return strings.Contains(rec.text(r.ID(), KindStdout), "\n") })
	daemon := firstLineInt(t, rec.text(r.ID(), KindStdout))
	t.Cleanup(func() { _ = unix.Kill(daemon, unix.SIGKILL) }) // it escaped on purpose
	waitGone(t, r.cmd.Process.Pid, "the shell to exit")
	if time.Since(began) >= limit {
		t.Fatalf("the shell took %v to exit, longer than the limit %v: this machine is too slow for the test", time.Since(began), limit)
	}
	// The limit passes while the daemon holds the terminal (a run that had not stopped
	// its timer would now report a timeout).
	timedOut := func() bool {
		return slices.ContainsFunc(rec.of(r.ID()), func(e Event) bool { return e.Kind == KindTimeout })
	}
	rec.waitUntil(began.Add(2*limit), timedOut)
	if r.Info().Status != StatusRunning {
		t.Fatalf("the run ended while the daemon held its terminal: %+v", r.Info())
	}
	_ = unix.Kill(daemon, unix.SIGKILL) // the terminal closes: the drain ends
	exit := wait(t, rec, r)
	res := r.Result()
	if exit.Code != 3 || res.ExitCode != 3 || res.TimedOut || r.Info().Status != StatusExited {
		t.Fatalf("exit event %+v, result %+v, status %s; want exit 3, not a timeout", exit, res, r.Info().Status)
	}
	if timedOut() {
		t.Fatal("a timeout event was sent for a command that had already exited")
	}
}
