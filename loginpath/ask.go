package loginpath

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"
)

// killWait bounds the wait for a killed shell to be gone: one stuck in the kernel
// (a hung network home folder) is left behind rather than holding Wisp up.
const killWait = time.Second

var errNoAnswer = errors.New("it printed no PATH between the markers")

// ask runs the shell and returns the line it printed between the markers. The
// shell's process group is killed as soon as the answer is in (or the time is up),
// so whatever its start-up files left running goes with it.
func (o *Options) ask(ctx context.Context, sh string, how kind) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, o.Timeout)
	defer cancel()
	b1, b2, e1, e2 := token(), token(), token(), token()
	script := fmt.Sprintf(format, b1, b2, how.script, e1, e2)
	r, w, err := os.Pipe()
	if err != nil {
		return "", err
	}
	cmd := &exec.Cmd{
		Path: sh, Args: append(append([]string{sh}, how.flags...), script),
		Env: o.env(), Dir: o.dir(),
		Stdout: w, // stdin and stderr: /dev/null
		// A session of its own: no controlling terminal, and a process group to kill.
		SysProcAttr: &syscall.SysProcAttr{Setsid: true},
	}
	err = cmd.Start()
	w.Close()
	if err != nil {
		r.Close()
		return "", fmt.Errorf("cannot start it: %w", err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	read := make(chan answer, 1)
	go func() { read <- readAnswer(r, b1+b2, e1+e2, o.MaxOutput) }()

	var got answer
	var exitErr error
	gotRead, gotExit := false, false
	select {
	case got = <-read:
		gotRead = true
		if got.err == errNoAnswer { // its output ended: hear how it ended
			select {
			case exitErr = <-exited:
				gotExit = true
			case <-ctx.Done():
			}
		}
	case <-ctx.Done():
	}
	_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	r.Close() // ends a read still waiting
	if !gotRead {
		got = <-read
	}
	if !gotExit {
		t := time.NewTimer(killWait)
		defer t.Stop()
		select {
		case exitErr = <-exited:
		case <-t.C:
			return "", errors.New("it did not end when it was killed")
		}
	}
	switch {
	case got.err == nil:
		return got.line, nil
	case got.err != errNoAnswer:
		return "", got.err
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		return "", fmt.Errorf("no answer within %s", o.Timeout)
	case ctx.Err() != nil:
		return "", errors.New("stopped before it answered")
	case exitErr != nil:
		return "", fmt.Errorf("it ended (%v) before printing its PATH", exitErr)
	}
	return "", errNoAnswer
}

// token is a random marker half: nothing a shell prints by chance.
func token() string {
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	return "wisp" + hex.EncodeToString(b)
}

// env is the shell's environment: Env without Strip, with a dumb terminal (start-up
// files then skip prompts and colours) and the guard against asking again.
func (o *Options) env() []string {
	out := make([]string, 0, len(o.Env)+2)
	for _, kv := range o.Env {
		name, _, _ := strings.Cut(kv, "=")
		if name == "TERM" || name == GuardVar || slices.Contains(o.Strip, name) {
			continue
		}
		out = append(out, kv)
	}
	return append(out, "TERM=dumb", GuardVar+"=1")
}

// dir is where the shell starts: the home folder, as a login.
func (o *Options) dir() string {
	if home := o.Getenv("HOME"); filepath.IsAbs(home) {
		if st, err := os.Stat(home); err == nil && st.IsDir() {
			return home
		}
	}
	return "/"
}

// answer is what was read of the shell's output.
type answer struct {
	line string
	err  error
}

// readAnswer reads the shell's output until the line between the markers is in,
// the output ends (errNoAnswer), or it grows over max.
func readAnswer(r *os.File, begin, end string, max int) answer {
	var out []byte
	buf := make([]byte, 8<<10)
	for {
		n, err := r.Read(buf)
		out = append(out, buf[:n]...)
		if line, found, bad := between(out, begin, end); found {
			return answer{line: line, err: bad}
		}
		if len(out) > max {
			return answer{err: fmt.Errorf("it printed more than %d KiB before its PATH", max>>10)}
		}
		if err != nil {
			return answer{err: errNoAnswer}
		}
	}
}

// between finds the line "\n<begin>\n<PATH>\n<end>\n" in out. found is false while
// the end marker has not come; bad says the text between is not one line.
func between(out []byte, begin, end string) (line string, found bool, bad error) {
	i := bytes.Index(out, []byte("\n"+begin+"\n"))
	if i < 0 {
		return "", false, nil
	}
	rest := out[i+len(begin)+2:]
	j := bytes.Index(rest, []byte("\n"+end+"\n"))
	if j < 0 {
		return "", false, nil
	}
	if bytes.IndexByte(rest[:j], '\n') >= 0 {
		return "", true, errors.New("its PATH is more than one line")
	}
	return string(rest[:j]), true, nil
}
