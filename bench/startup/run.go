package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/wispapp/wisp/bench/benchkit"
)

// listenPrefix starts the one line both servers print on stdout once they
// accept connections.
const listenPrefix = "Wisp is listening on "

const (
	// pollInterval is the pause between two GET /api/status attempts that did
	// not answer 200.
	pollInterval = 250 * time.Microsecond
	// requestTimeout bounds one attempt. It is long on purpose: once the
	// listening line is out, the socket accepts, so a slow first answer is
	// start-up work to be measured, and cutting it short would only add the
	// timeout's granularity to the figure.
	requestTimeout = 2 * time.Second
	// stopTimeout is how long a server may take to exit after SIGTERM.
	stopTimeout = 10 * time.Second
)

// target is one server binary under test with its own state directory.
type target struct {
	name     string
	path     string
	args     []string // arguments before --state-dir DIR
	dbFile   string   // file expected in the state directory after a run
	stateDir string
}

// sample is one measured start of a target.
type sample struct {
	startup time.Duration // exec → first 200 on /api/status
	rssKiB  int64         // VmRSS after the idle pause
	anonKiB int64         // RssAnon then: the private memory, without the binary's file pages
	unclean string        // why the exit after SIGTERM was not clean; "" if it was
	status  []byte        // body of the first 200
}

// measure starts t, times exec → first 200 on /api/status, waits idle, reads
// the resident set size, then stops the server with SIGTERM. An error means
// the harness could not measure (no start, no listening line, no 200); an
// unclean exit is reported in the sample instead.
func (t *target) measure(ctx context.Context, idle, startTimeout time.Duration) (sample, error) {
	var s sample

	pr, pw, err := os.Pipe()
	if err != nil {
		return s, err
	}
	defer pr.Close()
	stderr := &benchkit.TailBuffer{Max: 8 << 10}
	cmd := exec.Command(t.path, append(append([]string{}, t.args...), "--state-dir", t.stateDir)...)
	cmd.Env = append(benchkit.ChildEnv(), "WISP_API_TOKEN="+benchToken)
	cmd.Stdout = pw
	cmd.Stderr = stderr
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}

	start := time.Now()
	err = cmd.Start()
	pw.Close()
	if err != nil {
		return s, fmt.Errorf("%s: start: %w", t.name, err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	kill := func() {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		<-exited
	}
	fail := func(format string, a ...any) (sample, error) {
		kill()
		msg := fmt.Sprintf(format, a...)
		if tail := strings.TrimSpace(stderr.String()); tail != "" {
			msg += "\n--- stderr (tail) ---\n" + tail
		}
		return s, fmt.Errorf("%s: %s", t.name, msg)
	}

	urls := make(chan string, 1)
	go scanListening(pr, urls, stderr)

	deadline := time.NewTimer(startTimeout)
	defer deadline.Stop()
	var base string
	select {
	case base = <-urls:
	case err := <-exited:
		exited <- err
		return fail("exited before printing the listening line: %v", err)
	case <-deadline.C:
		return fail("no %q line on stdout within %v", listenPrefix, startTimeout)
	case <-ctx.Done():
		return fail("%v", ctx.Err())
	}
	if err := checkLoopback(base); err != nil {
		return fail("%v", err)
	}

	client := &http.Client{
		Timeout:   requestTimeout,
		Transport: &http.Transport{Proxy: nil, DisableKeepAlives: true},
	}
	statusURL := base + "/api/status"
	var last string
	for {
		body, code, err := get(ctx, client, statusURL)
		if err == nil && code == http.StatusOK {
			s.startup = time.Since(start)
			s.status = body
			break
		}
		if err != nil {
			last = err.Error()
		} else {
			last = fmt.Sprintf("status %d: %.200s", code, body)
		}
		select {
		case err := <-exited:
			exited <- err
			return fail("exited while waiting for 200 on %s (%v); last answer: %s", statusURL, err, last)
		case <-deadline.C:
			return fail("no 200 on %s within %v; last answer: %s", statusURL, startTimeout, last)
		case <-ctx.Done():
			return fail("%v", ctx.Err())
		case <-time.After(pollInterval):
		}
	}

	select {
	case err := <-exited:
		exited <- err
		return fail("exited while idle: %v", err)
	case <-ctx.Done():
		return fail("%v", ctx.Err())
	case <-time.After(idle):
	}
	s.rssKiB, s.anonKiB, err = memory(cmd.Process.Pid)
	if err != nil {
		return fail("read RSS: %v", err)
	}

	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		return fail("SIGTERM: %v", err)
	}
	select {
	case err := <-exited:
		if err != nil {
			s.unclean = err.Error()
			if tail := strings.TrimSpace(stderr.String()); tail != "" {
				s.unclean += " (stderr tail: " + lastLine(tail) + ")"
			}
		}
	case <-time.After(stopTimeout):
		kill()
		s.unclean = fmt.Sprintf("still running %v after SIGTERM; killed", stopTimeout)
	case <-ctx.Done():
		return fail("%v", ctx.Err())
	}
	// Leave nothing behind: a wrapper script may have left children running
	// in the server's process group.
	_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	return s, nil
}

// scanListening reads the server's stdout to the end, sends the base URL of
// the first listening line on urls, and keeps any other line in other.
func scanListening(r io.Reader, urls chan<- string, other io.Writer) {
	sc := bufio.NewScanner(r)
	found := false
	for sc.Scan() {
		line := sc.Text()
		if rest, ok := strings.CutPrefix(line, listenPrefix); ok && !found {
			found = true
			urls <- strings.TrimRight(strings.TrimSpace(rest), "/")
			continue
		}
		fmt.Fprintf(other, "stdout: %s\n", line)
	}
	_, _ = io.Copy(io.Discard, r)
}

// checkLoopback refuses any URL that would send traffic beyond 127.0.0.1.
func checkLoopback(base string) error {
	u, err := url.Parse(base)
	if err != nil {
		return fmt.Errorf("listening line: %v", err)
	}
	if u.Scheme != "http" || u.Hostname() != "127.0.0.1" || u.Port() == "" {
		return fmt.Errorf("listening URL %q is not http://127.0.0.1:PORT", base)
	}
	return nil
}

// benchToken is the API token the servers run with (`wisp serve` needs one; the
// floor ignores it), so /api/status answers the same request on both.
const benchToken = "startup-bench-token"

func get(ctx context.Context, c *http.Client, u string) ([]byte, int, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return nil, 0, err
	}
	req.Header.Set("Authorization", "Bearer "+benchToken)
	resp, err := c.Do(req)
	if err != nil {
		return nil, 0, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
	return body, resp.StatusCode, err
}

// memory returns the VmRSS and RssAnon lines of /proc/<pid>/status in KiB.
func memory(pid int) (rss, anon int64, err error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, 0, err
	}
	return parseMemory(string(b))
}

// parseMemory reads VmRSS and RssAnon from the text of /proc/<pid>/status.
func parseMemory(status string) (rss, anon int64, err error) {
	found := 0
	for line := range strings.Lines(status) {
		key, rest, ok := strings.Cut(line, ":")
		if !ok || key != "VmRSS" && key != "RssAnon" {
			continue
		}
		f := strings.Fields(rest) // "12345 kB"
		if len(f) != 2 || f[1] != "kB" {
			return 0, 0, fmt.Errorf("unexpected %s line %q", key, line)
		}
		v, err := strconv.ParseInt(f[0], 10, 64)
		if err != nil {
			return 0, 0, fmt.Errorf("%s: %w", key, err)
		}
		if key == "VmRSS" {
			rss = v
		} else {
			anon = v
		}
		found++
	}
	if found != 2 {
		return 0, 0, errors.New("no VmRSS or RssAnon in /proc/<pid>/status")
	}
	return rss, anon, nil
}

func lastLine(s string) string {
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		return s[i+1:]
	}
	return s
}
