package doctext

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"time"
)

// Result is what Read found in a PDF.
type Result struct {
	Pages     []Page
	Truncated bool  // more pages or text than the bounds let through
	MaxRSS    int64 // the child's peak resident memory, bytes (0 where unknown)
}

// PDF reads the text of the PDF at path, page by page, in a child process within
// b (zero fields: the defaults). Its errors are *Error (ErrUnreadable, ErrTime,
// ErrMemory) or ctx's.
func PDF(ctx context.Context, path string, b Bounds) ([]Page, bool, error) {
	res, err := Read(ctx, path, b)
	return res.Pages, res.Truncated, err
}

// Read is PDF with the child's peak memory, for the benchmark.
func Read(ctx context.Context, path string, b Bounds) (Result, error) {
	exe, err := os.Executable()
	if err != nil {
		return Result{}, fmt.Errorf("find the reader: %w", err)
	}
	return ReadWith(ctx, exe, path, b)
}

// ReadWith is Read with another executable as the child: one whose main calls
// RunChildIfAsked first (the benchmark measures Wisp's own binary this way).
func ReadWith(ctx context.Context, exe, path string, b Bounds) (Result, error) {
	b = b.withDefaults()
	exe, err := filepath.Abs(exe) // the child runs in the temporary folder
	if err != nil {
		return Result{}, fmt.Errorf("find the reader: %w", err)
	}
	f, err := os.Open(path)
	if err != nil {
		return Result{}, fmt.Errorf("open the PDF: %w", err)
	}
	defer f.Close()
	run, cancel := context.WithTimeout(ctx, b.Time)
	defer cancel()
	cmd := exec.CommandContext(run, exe)
	// A minimal environment: no secrets, no proxies; one thread of Go's scheduler
	// per core is plenty for one file.
	cmd.Env = []string{envChild + "=" + b.spec(), "GOMAXPROCS=2", "GOTRACEBACK=none", "LANG=C"}
	cmd.Stdin = f
	cmd.Dir = os.TempDir()
	stderr := &headBuffer{max: 4 << 10}
	cmd.Stderr = stderr
	cmd.WaitDelay = time.Second
	ownGroup(cmd)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return Result{}, fmt.Errorf("start the reader: %w", err)
	}
	if err := cmd.Start(); err != nil {
		return Result{}, fmt.Errorf("start the reader: %w", err)
	}
	// The output is bounded: the text, a frame header and number per page, slack.
	out, decodeErr := decode(io.LimitReader(stdout, b.Text+int64(b.Pages)*9+64<<10), b)
	if decodeErr != nil || !out.done {
		cancel() // kills the process group
	}
	io.Copy(io.Discard, io.LimitReader(stdout, 1<<20))
	waitErr := cmd.Wait()
	res := Result{Pages: out.pages, Truncated: out.truncated}
	if cmd.ProcessState != nil {
		res.MaxRSS = maxRSS(cmd.ProcessState)
	}
	switch {
	case ctx.Err() != nil:
		return Result{}, ctx.Err()
	case errors.Is(run.Err(), context.DeadlineExceeded) && !out.done:
		return Result{}, tooSlow(b)
	case outOfMemory(stderr.bytes()) || crashed(cmd.ProcessState, stderr.bytes()) && res.MaxRSS >= b.Memory/2:
		return Result{}, tooBig(b)
	case out.failure != "":
		return Result{}, unreadable("%s", out.failure)
	case decodeErr == errNoChild:
		return Result{}, fmt.Errorf("read the PDF: %w", errNoChild)
	case decodeErr != nil:
		return Result{}, unreadable("%v", decodeErr)
	case waitErr != nil:
		return Result{}, unreadable("the reader stopped: %v", waitErr)
	}
	return res, nil
}

// headBuffer keeps the first max bytes written to it.
type headBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
	max int
}

func (h *headBuffer) Write(p []byte) (int, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if room := h.max - h.buf.Len(); room > 0 {
		h.buf.Write(p[:min(room, len(p))])
	}
	return len(p), nil
}

func (h *headBuffer) bytes() []byte {
	h.mu.Lock()
	defer h.mu.Unlock()
	return bytes.Clone(h.buf.Bytes())
}

// outOfMemory: the child's last words say it ran out of memory: the Go runtime
// could not map more heap, or a thread's stack (the bound counts both), or the
// race detector's allocator could not (a -race build).
func outOfMemory(stderr []byte) bool {
	for _, s := range []string{"out of memory", "cannot allocate memory", "pthread_create failed", "failed to create new OS thread",
		"ThreadSanitizer failed to allocate", "ERROR: ThreadSanitizer"} {
		if bytes.Contains(stderr, []byte(s)) {
			return true
		}
	}
	return false
}

// crashed: the child's Go runtime failed (it exits 2 after a fatal error or a
// fault it could not handle). Parse errors do not do this (the child recovers the
// library's panics), running out of a bound does: under RLIMIT_DATA the runtime
// does not always say "out of memory" (a failed mapping can fault in the
// collector, a thread's stack cannot be made).
func crashed(st *os.ProcessState, stderr []byte) bool {
	if st == nil || st.ExitCode() != 2 {
		return false
	}
	for _, s := range []string{"fatal error:", "SIGSEGV", "SIGABRT", "SIGBUS", "unexpected signal"} {
		if bytes.Contains(stderr, []byte(s)) {
			return true
		}
	}
	return false
}
