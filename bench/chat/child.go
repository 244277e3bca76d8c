package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/wispapp/wisp/bench/benchkit"
)

// server is one process the driver starts: Wisp, the bare relay, or the fake
// model, each the driver's own executable started with --serve, so Wisp and the
// relay are the same kind of process (one Go binary, one listener on loopback),
// the CPU each spends is its own, and the fake model's flood of chunks does not
// share a process with them or with the client, which stays in the driver.
type server struct {
	name    string
	url     string // the server's API
	control string // the child's control listener: GET /cpu
	cmd     *exec.Cmd
	stderr  *benchkit.TailBuffer
	client  *http.Client
}

// startServer starts the driver's executable as `--serve kind` answered by the
// fake model at modelURL, and waits for the line that gives its two URLs.
func startServer(ctx context.Context, kind, modelURL, dir, profile string, extra ...string) (*server, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, err
	}
	args := []string{"--serve", kind, "--model", modelURL, "--dir", dir}
	if profile != "" {
		args = append(args, "--cpuprofile", profile)
	}
	args = append(args, extra...)
	s := &server{name: kind, stderr: &benchkit.TailBuffer{Max: 4096}, client: benchkit.NewHTTPClient()}
	s.cmd = exec.CommandContext(ctx, exe, args...)
	s.cmd.Env = benchkit.ChildEnv()
	s.cmd.Stderr = s.stderr
	s.cmd.Cancel = func() error { return s.cmd.Process.Signal(syscall.SIGTERM) }
	s.cmd.WaitDelay = 10 * time.Second
	out, err := s.cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := s.cmd.Start(); err != nil {
		return nil, err
	}
	line := make(chan string, 1)
	go func() {
		l, _ := bufio.NewReader(out).ReadString('\n')
		line <- l
	}()
	select {
	case l := <-line:
		f := strings.Fields(l)
		if len(f) != 3 || f[0] != "listening" {
			_ = s.stop()
			return nil, fmt.Errorf("%s: did not start: %q %s", kind, l, s.stderr)
		}
		s.url, s.control = f[1], f[2]
	case <-time.After(30 * time.Second):
		_ = s.stop()
		return nil, fmt.Errorf("%s: no start line in 30 s: %s", kind, s.stderr)
	}
	return s, nil
}

// stop asks the child to shut down (SIGTERM) and waits for it.
func (s *server) stop() error {
	if s.cmd.Process == nil {
		return nil
	}
	_ = s.cmd.Process.Signal(syscall.SIGTERM)
	err := s.cmd.Wait()
	if err != nil {
		return fmt.Errorf("%s: %w: %s", s.name, err, s.stderr)
	}
	return nil
}

// cpu is the child's CPU time so far, user and system (its getrusage, read
// through its control listener: microseconds, where /proc counts 10 ms ticks).
func (s *server) cpu(ctx context.Context) (time.Duration, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, s.control+"/cpu", nil)
	if err != nil {
		return 0, err
	}
	resp, err := s.client.Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	var ns int64
	if _, err := fmt.Fscan(resp.Body, &ns); err != nil {
		return 0, fmt.Errorf("%s: cpu: %w", s.name, err)
	}
	return time.Duration(ns), nil
}

// settledCPU waits until the child has gone quiet (what it does after a reply's
// end, such as folding the run log, is part of the reply's cost) and returns its
// CPU time: the reading once two in a row, 20 ms apart, differ by less than
// 0.2 ms, or the last of 50.
func (s *server) settledCPU(ctx context.Context) (time.Duration, error) {
	prev, err := s.cpu(ctx)
	if err != nil {
		return 0, err
	}
	for range 50 {
		time.Sleep(20 * time.Millisecond)
		cur, err := s.cpu(ctx)
		if err != nil {
			return 0, err
		}
		if cur-prev < 200*time.Microsecond {
			return cur, nil
		}
		prev = cur
	}
	return prev, nil
}

// serveControl starts the child's control listener.
func serveControl() (*benchkit.Server, error) {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /cpu", func(w http.ResponseWriter, _ *http.Request) {
		_, _ = fmt.Fprintln(w, strconv.FormatInt(int64(selfCPU()), 10))
	})
	return benchkit.Serve(mux)
}

// selfCPU is this process's user and system CPU time.
func selfCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// serveChild is the child's whole life: start the server of kind (the model
// answering longPrompt with tokens chunks), print
// "listening <url> <control url>", serve until the context ends (SIGTERM).
func serveChild(ctx context.Context, kind, modelURL, dir string, tokens int) error {
	ctl, err := serveControl()
	if err != nil {
		return err
	}
	defer ctl.Stop()
	var url string
	var stop func() error
	switch kind {
	case "wisp":
		a, err := benchkit.StartApp(ctx, dir, map[string]string{
			"WISP_PROVIDER": "openai", "WISP_BASE_URL": modelURL, "WISP_MODEL": "fake", "OPENAI_API_KEY": "k",
		})
		if err != nil {
			return err
		}
		url, stop = a.URL(), a.Stop
	case "relay":
		srv, err := startRelay(modelURL)
		if err != nil {
			return err
		}
		url, stop = srv.URL, srv.Stop
	case "model":
		fake := startFake(longReply(tokens))
		url, stop = fake.OpenAIURL(), func() error { fake.Close(); return nil }
	default:
		return errors.New("--serve takes wisp, relay or model")
	}
	fmt.Printf("listening %s %s\n", url, ctl.URL)
	<-ctx.Done()
	return stop()
}
