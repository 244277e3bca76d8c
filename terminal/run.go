package terminal

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"sync"
	"syscall"
	"time"
)

// Spec is what to run.
type Spec struct {
	Command string
	// Owner is the client id whose sockets see the output and may type into the run.
	// Empty means the run was started on the agent's behalf: every client sees it and
	// nobody types into it.
	Owner      string
	Cols, Rows int
	// Dir is the working directory of this run; "" means the manager's (Options.Dir).
	Dir string
	// Capture keeps the first bytes of stdout and stderr for Result, and turns off the
	// terminal's "\n" → "\r\n" translation so the text is what the program wrote.
	Capture bool
}

// Status is where a run is in its life.
type Status string

// The statuses of a run.
const (
	StatusRunning Status = "running"
	StatusExited  Status = "exited"
	StatusTimeout Status = "timeout"
	StatusKilled  Status = "killed"
	StatusError   Status = "error" // the shell could not be started
)

// ExitTimeout is the exit code of a run that ran out of time (as timeout(1)).
const ExitTimeout = 124

// exitSpawnFailed is the exit code reported when the shell could not be started.
const exitSpawnFailed = 127

// Errors of the run operations.
var (
	ErrEnded     = errors.New("the run has already ended")
	ErrNotOwner  = errors.New("only the client that started the run may do that")
	ErrInputFull = errors.New("the program is not reading its input: keystrokes dropped")
)

// stopReason says why Wisp is ending a run.
type stopReason int

const (
	notStopping stopReason = iota
	stopTimeout
	stopKill
	stopShutdown
)

// Run is one command in its own PTY, session and process group.
type Run struct {
	id   string
	spec Spec
	m    *Manager

	mu       sync.Mutex // guards everything below and orders emitted events
	out      outbox     // the events on their way to the sink
	seq      int64
	status   Status
	exitCode int
	errMsg   string
	started  time.Time
	ended    time.Time
	cols     int
	rows     int
	stopping stopReason
	exited   bool // the leader has exited: its status is known, the limits no longer apply
	reaped   bool // the leader was reaped: its pid (the group id) may be reused
	timers   []*time.Timer
	scroll   scrollback
	stdout   capture
	stderr   capture

	cmd     *exec.Cmd
	release func() // lets go of the confinement the shell started in
	master  *os.File
	errPipe *os.File
	inputMu sync.Mutex    // one keystroke write at a time
	done    chan struct{} // closed by the delivering goroutine after the last event
}

// ID is the run's id.
func (r *Run) ID() string { return r.id }

// Done is closed when the run has ended and its exit event was sent.
func (r *Run) Done() <-chan struct{} { return r.done }

// emitLocked numbers an event, keeps its output and queues it for the sink. It never
// waits: output that must wait for room goes through queueOutput.
func (r *Run) emitLocked(e Event) {
	r.seq++
	e.RunID, e.Owner, e.Seq = r.id, r.spec.Owner, r.seq
	switch e.Kind {
	case KindStdout, KindStderr:
		r.scroll.add(Chunk{Seq: e.Seq, Event: e.Kind, Data: e.Data})
		if r.spec.Capture {
			if e.Kind == KindStdout {
				r.stdout.add(e.Data)
			} else {
				r.stderr.add(e.Data)
			}
		}
	}
	r.out.push(e)
}

// pump builds the pump that reads one of the run's output streams.
func (r *Run) pump(src *os.File, kind Kind) *pump {
	return &pump{src: src, emit: func(data string) { r.queueOutput(kind, data) }}
}

// start spawns the shell and the goroutines that serve it. A spawn failure is
// reported as an error event and ends the run at once.
func (r *Run) start() {
	master, errR, cmd, release, err := r.spawn()
	if err != nil {
		r.fail(err)
		return
	}
	r.mu.Lock()
	r.master, r.errPipe, r.cmd, r.release = master, errR, cmd, release
	r.emitLocked(Event{Kind: KindStart, Command: r.spec.Command, MaxDurationMs: r.m.opts.MaxDuration.Milliseconds()})
	r.timers = append(r.timers, time.AfterFunc(r.m.opts.MaxDuration, r.timeUp))
	if r.stopping != notStopping { // killed while it was being spawned
		r.signalLocked(syscall.SIGTERM)
	}
	r.mu.Unlock()
	go r.supervise()
}

// spawn opens the terminal and the stderr pipe and starts the shell on them, confined
// when it is the agent's run.
func (r *Run) spawn() (master, errR *os.File, cmd *exec.Cmd, release func(), err error) {
	o := &r.m.opts
	dir, which := o.Dir, " (terminal.cwd)"
	if r.spec.Dir != "" {
		dir, which = r.spec.Dir, ""
	}
	// exec reports a bad folder as "fork/exec <shell>: …", which blames the shell.
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return nil, nil, nil, nil, fmt.Errorf("working folder %s%s is not a folder", dir, which)
	}
	master, tty, err := openPTY(r.cols, r.rows, r.spec.Capture)
	if err != nil {
		return nil, nil, nil, nil, err
	}
	defer tty.Close() // the child has its own copy
	errR, errW, err := os.Pipe()
	if err != nil {
		master.Close()
		return nil, nil, nil, nil, err
	}
	defer errW.Close()
	cmd = exec.Command(o.Shell, "-c", r.spec.Command)
	cmd.Dir = dir
	cmd.Env = o.Env // secrets left out (setDefaults)
	if o.PATH != nil {
		cmd.Env = withPATH(o.Env, o.PATH())
	}
	cmd.Stdin, cmd.Stdout, cmd.Stderr = tty, tty, errW
	// Its own session (and so its own process group, id = pid) with the PTY as the
	// controlling terminal (fd 0 in the child).
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true, Ctty: 0}
	release = func() {}
	if r.spec.Owner == "" && o.Confine != nil {
		release, err = o.Confine(cmd.Start)
	} else {
		err = cmd.Start()
	}
	if err != nil {
		master.Close()
		errR.Close()
		return nil, nil, nil, nil, err
	}
	return master, errR, cmd, release, nil
}

// fail ends a run whose shell could not start.
func (r *Run) fail(err error) {
	r.m.log.Warn("terminal run failed to start", "run", r.id, "err", err)
	r.mu.Lock()
	r.status, r.exitCode, r.errMsg, r.ended = StatusError, exitSpawnFailed, err.Error(), time.Now()
	r.mu.Unlock()
	r.m.release(r)
	r.mu.Lock()
	r.emitLocked(Event{Kind: KindError, Data: err.Error()})
	r.mu.Unlock()
}

// supervise waits for the shell, kills what it left behind, drains the output and
// queues the exit. It is the only goroutine that waits for the process.
func (r *Run) supervise() {
	var pumps sync.WaitGroup
	streams := []*pump{r.pump(r.master, KindStdout), r.pump(r.errPipe, KindStderr)}
	for _, p := range streams {
		pumps.Add(1)
		go func() {
			defer pumps.Done()
			p.run()
		}()
	}
	pid := r.cmd.Process.Pid
	waitExited(pid) // the leader is a zombie now: its pid still names the session
	r.markExited()
	signalSession(pid, syscall.SIGKILL)
	drained := make(chan struct{})
	go func() {
		pumps.Wait()
		close(drained)
	}()
	r.drain(drained, streams)
	r.mu.Lock()
	r.reaped = true
	r.mu.Unlock()
	_ = r.cmd.Wait()
	r.release()
	r.master.Close()
	r.errPipe.Close()
	r.finish(exitCode(r.cmd.ProcessState))
}

// markExited records that the command has exited: its exit status is known, so
// the time limit and a kill no longer apply, even while its output is still drained
// (a daemon it left may hold the terminal past the limit).
func (r *Run) markExited() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.exited = true
	for _, t := range r.timers {
		t.Stop()
	}
}

// drain waits until the output of an ended command has been read and queued for the
// sink. Something outside the session (a daemon that called setsid) may still hold the
// terminal or the pipe: once the streams have been quiet for DrainTimeout, or after
// DrainLimit in all, they are closed rather than waited for. A reader waiting for room
// in the outbox (a viewer behind) is not quiet.
func (r *Run) drain(drained <-chan struct{}, streams []*pump) {
	limit := time.After(r.m.opts.DrainLimit)
	tick := time.NewTicker(r.m.opts.DrainTimeout)
	defer tick.Stop()
	for {
		select {
		case <-drained:
			return
		case now := <-tick.C:
			if !streams[0].quietSince(now.Add(-r.m.opts.DrainTimeout)) || !streams[1].quietSince(now.Add(-r.m.opts.DrainTimeout)) {
				continue
			}
		case <-limit:
		}
		r.m.log.Warn("terminal output still open after exit, closing it", "run", r.id)
		r.master.Close()
		r.errPipe.Close()
		<-drained
		return
	}
}

// finish records the end, frees the slot, then sends the exit event, after all the
// output.
func (r *Run) finish(code int) {
	r.mu.Lock()
	r.ended = time.Now()
	switch r.stopping {
	case stopTimeout:
		r.status, code = StatusTimeout, ExitTimeout
	case stopKill, stopShutdown:
		r.status = StatusKilled
	default:
		r.status = StatusExited
	}
	r.exitCode = code
	r.mu.Unlock()
	r.m.release(r)
	r.mu.Lock()
	r.emitLocked(Event{Kind: KindExit, Code: code})
	r.mu.Unlock()
}

// exitCode maps a wait status: the exit status, or 128+n after signal n.
func exitCode(ps *os.ProcessState) int {
	if ps == nil {
		return 255
	}
	if ws, ok := ps.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return 128 + int(ws.Signal())
	}
	return ps.ExitCode()
}

// timeUp ends a run that reached MaxDuration (its timer calls it).
func (r *Run) timeUp() { _ = r.stop(stopTimeout) }

// stop ends a run on Wisp's initiative: SIGTERM to its whole session now, SIGKILL
// after the grace period. The first reason wins.
func (r *Run) stop(reason stopReason) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.status != StatusRunning || r.exited {
		return ErrEnded
	}
	if r.stopping != notStopping {
		return nil
	}
	r.stopping = reason
	if reason == stopTimeout {
		r.emitLocked(Event{Kind: KindTimeout, MaxDurationMs: r.m.opts.MaxDuration.Milliseconds()})
	}
	r.signalLocked(syscall.SIGTERM)
	r.timers = append(r.timers, time.AfterFunc(r.m.opts.KillGrace, func() {
		r.mu.Lock()
		defer r.mu.Unlock()
		r.signalLocked(syscall.SIGKILL)
	}))
	return nil
}

func (r *Run) signalLocked(sig syscall.Signal) {
	if r.reaped || r.cmd == nil {
		return // the session id may belong to someone else now
	}
	signalSession(r.cmd.Process.Pid, sig)
}

// Kill ends the run: SIGTERM to its process group, SIGKILL after a grace period.
func (r *Run) Kill() error { return r.stop(stopKill) }

// inputWriteTimeout bounds how long a keystroke may wait for a program that does not
// read; the caller is a socket's read loop and must not hang.
const inputWriteTimeout = 100 * time.Millisecond

// MaxInput is the largest piece of keyboard input accepted at once.
const MaxInput = 16 << 10

// Input writes keystrokes to the run's terminal. Only the owning client may type, and
// nobody types into an agent's run.
func (r *Run) Input(owner, data string) error {
	if r.spec.Owner == "" || owner != r.spec.Owner {
		return ErrNotOwner
	}
	if len(data) > MaxInput {
		return errors.New("terminal input is larger than 16 KiB")
	}
	if !r.running() {
		return ErrEnded
	}
	r.inputMu.Lock()
	defer r.inputMu.Unlock()
	_ = r.master.SetWriteDeadline(time.Now().Add(inputWriteTimeout))
	_, err := r.master.WriteString(data)
	switch {
	case errors.Is(err, os.ErrDeadlineExceeded):
		return ErrInputFull
	case err != nil:
		return ErrEnded
	}
	return nil
}

// Resize changes the terminal size (the program gets SIGWINCH).
func (r *Run) Resize(owner string, cols, rows int) error {
	if r.spec.Owner == "" || owner != r.spec.Owner {
		return ErrNotOwner
	}
	if err := checkSize(cols, rows); err != nil {
		return err
	}
	if !r.running() {
		return ErrEnded
	}
	if err := setSize(r.master, cols, rows); err != nil {
		return ErrEnded // the terminal is already closed
	}
	r.mu.Lock()
	r.cols, r.rows = cols, rows
	r.mu.Unlock()
	return nil
}

func (r *Run) running() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.status == StatusRunning && r.master != nil && !r.reaped
}

// Wait blocks until the run ends (or ctx is done) and returns its result.
func (r *Run) Wait(ctx context.Context) (Result, error) {
	select {
	case <-r.done:
		return r.Result(), nil
	case <-ctx.Done():
		return Result{}, ctx.Err()
	}
}
