package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/wispapp/wisp/bench/benchkit"
)

const listenPrefix = "Wisp is listening on "

// wispProc is a wisp-serve started by the driver, on a state folder of its own.
type wispProc struct {
	cmd    *exec.Cmd
	url    string
	exited chan error
	stderr *benchkit.TailBuffer
}

// startWisp copies the database at db into a new state folder under tmp and starts
// bin serve on it, on a free loopback port, with token as its API token.
func startWisp(ctx context.Context, bin, db, tmp, token string) (*wispProc, error) {
	state := filepath.Join(tmp, "state")
	if err := os.MkdirAll(state, 0o700); err != nil {
		return nil, err
	}
	if err := copyFile(db, filepath.Join(state, "wisp.db")); err != nil {
		return nil, fmt.Errorf("copy the database: %w", err)
	}
	cmd := exec.Command(bin, "serve", "--host", "127.0.0.1", "--port", "0", "--state-dir", state)
	cmd.Env = append(benchkit.ChildEnv(), "WISP_API_TOKEN="+token)
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	p := &wispProc{cmd: cmd, exited: make(chan error, 1), stderr: &benchkit.TailBuffer{Max: 8 << 10}}
	cmd.Stderr = p.stderr
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	go func() { p.exited <- cmd.Wait() }()
	urls := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			if rest, ok := strings.CutPrefix(sc.Text(), listenPrefix); ok {
				urls <- strings.TrimRight(strings.TrimSpace(rest), "/")
				break
			}
		}
		_, _ = io.Copy(io.Discard, out)
	}()
	select {
	case p.url = <-urls:
		return p, nil
	case err := <-p.exited:
		return nil, fmt.Errorf("wisp-serve exited: %v\n%s", err, p.stderr)
	case <-time.After(60 * time.Second):
		p.stop()
		return nil, fmt.Errorf("wisp-serve printed no listening line within 60 s\n%s", p.stderr)
	case <-ctx.Done():
		p.stop()
		return nil, ctx.Err()
	}
}

// stop ends the process: SIGTERM, then SIGKILL to its group after 15 s.
func (p *wispProc) stop() {
	_ = p.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-p.exited:
	case <-time.After(15 * time.Second):
		_ = syscall.Kill(-p.cmd.Process.Pid, syscall.SIGKILL)
		<-p.exited
	}
}

func copyFile(from, to string) error {
	in, err := os.Open(from)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(to, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}
