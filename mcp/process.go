package mcp

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"syscall"
	"time"
)

// process is a stdio server's process: run directly (never through a shell), in a
// process group of its own so stopping it stops whatever it started, with stdin and
// stdout as plain pipes Wisp owns (so the end of output is seen even when the process
// leaves children behind) and stderr into a bounded tail.
type process struct {
	cmd    *exec.Cmd
	stdin  *os.File
	stdout *os.File
	out    *lineCap // stdout, a message at a time up to maxMessageBytes
	exited chan struct{}
	err    error // after exited: how it ended
}

// grace is how long a stopping process has after its stdin closes, then after SIGTERM.
const grace = 2 * time.Second

// startProcess starts a stdio server's program exe (its command, looked up),
// through confine when it is set.
func startProcess(s Spec, exe string, env []string, stderr io.Writer, confine func(func() error) (func(), error)) (*process, error) {
	cmd := &exec.Cmd{Path: exe, Args: append([]string{s.Command}, s.Args...)}
	cmd.Dir = s.Cwd
	cmd.Env = env
	cmd.Stderr = stderr
	cmd.WaitDelay = time.Second // a child holding stderr open does not hold Wait
	cmd.SysProcAttr = sysProcAttr()
	inR, inW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		return nil, err
	}
	cmd.Stdin, cmd.Stdout = inR, outW
	release := func() {}
	if confine != nil {
		release, err = confine(cmd.Start)
	} else {
		err = cmd.Start()
	}
	inR.Close()
	outW.Close()
	if err != nil {
		inW.Close()
		outR.Close()
		return nil, startError(s.Command, err)
	}
	p := &process{cmd: cmd, stdin: inW, stdout: outR, out: &lineCap{r: outR, max: maxMessageBytes}, exited: make(chan struct{})}
	go func() {
		p.err = cmd.Wait()
		release()
		close(p.exited)
	}()
	return p, nil
}

func startError(command string, err error) error {
	if errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("cannot start %s: no such file (or no such working folder)", command)
	}
	return fmt.Errorf("cannot start %s: %w", command, err)
}

// stop ends the process as the MCP spec asks: close its stdin, then SIGTERM, then
// SIGKILL, to its whole group; it returns once the process has exited.
func (p *process) stop() {
	p.stdin.Close()
	for _, sig := range []syscall.Signal{0, syscall.SIGTERM, syscall.SIGKILL} {
		if sig != 0 {
			signalGroup(p.cmd, sig)
		}
		t := time.NewTimer(grace)
		select {
		case <-p.exited:
			t.Stop()
			signalGroup(p.cmd, syscall.SIGKILL) // what it left behind
			p.stdout.Close()
			return
		case <-t.C:
		}
	}
	<-p.exited
	p.stdout.Close()
}

// exitError says how the process ended, for the server's status.
func (p *process) exitError() error {
	select {
	case <-p.exited:
	default:
		return nil
	}
	if p.err == nil {
		return errors.New("the server exited")
	}
	msg := p.err.Error()
	var ee *exec.ExitError
	if errors.As(p.err, &ee) {
		msg = ee.ProcessState.String() // "exit status 3", "signal: killed"
	}
	return fmt.Errorf("the server exited (%s)", msg)
}
