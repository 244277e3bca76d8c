package mic

import (
	"bufio"
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// Bounds of a recorder child process.
const (
	// MaxCapture is the longest a recorder runs; then its group is killed.
	MaxCapture = 5 * time.Minute
	// maxStderr bounds what is kept of a recorder's stderr.
	maxStderr = 4 << 10
	// waitDelay bounds the wait for a killed recorder's stderr to close.
	waitDelay = 2 * time.Second
)

// startTimeout is how long a recorder has to give its first bytes (a variable for tests).
var startTimeout = 3 * time.Second

// ProcessSource runs a recorder program that writes Speech PCM to its stdout. It
// runs without a shell, in a process group of its own, and the whole group is
// killed when the reader is closed, when ctx ends, or after Limit.
type ProcessSource struct {
	Name  string   // for messages: "pw-record"
	Path  string   // the program
	Args  []string // what makes it write Speech PCM to stdout
	Limit time.Duration
}

// Start runs the recorder and waits for its first bytes: a recorder that exits at
// once (no device, no server) is reported with the last line of its stderr.
func (p *ProcessSource) Start(ctx context.Context) (io.ReadCloser, error) {
	limit := p.Limit
	if limit <= 0 {
		limit = MaxCapture
	}
	ctx, cancel := context.WithCancel(ctx)
	pr, pw, err := os.Pipe()
	if err != nil {
		cancel()
		return nil, fmt.Errorf("%s: %w", p.Name, err)
	}
	cmd := exec.CommandContext(ctx, p.Path, p.Args...)
	cmd.Stdout = pw
	stderr := &boundedBuffer{max: maxStderr}
	cmd.Stderr = stderr
	cmd.SysProcAttr = groupAttr()
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = waitDelay
	err = cmd.Start()
	pw.Close() // the child holds its own copy
	if err != nil {
		cancel()
		pr.Close()
		return nil, fmt.Errorf("start %s: %w", p.Name, err)
	}
	r := &processReader{name: p.Name, cmd: cmd, pipe: pr, stderr: stderr, cancel: cancel, ctx: ctx}
	if err := r.first(); err != nil {
		r.Close()
		return nil, err
	}
	r.limit = time.AfterFunc(limit, cancel) // counted from the first audio
	return r, nil
}

// pidOf is the recorder's process id (its group's too), for tests and logs.
func pidOf(r io.ReadCloser) int {
	if pr, ok := r.(*processReader); ok {
		return pr.cmd.Process.Pid
	}
	return 0
}

// processReader reads a recorder's stdout; Close kills its group and reaps it.
type processReader struct {
	name   string
	cmd    *exec.Cmd
	pipe   *os.File
	stderr *boundedBuffer
	cancel context.CancelFunc
	ctx    context.Context
	in     io.Reader   // the PCM, once the first bytes told what the stream is
	limit  *time.Timer // ends the capture after the limit
	closed atomic.Bool

	once    sync.Once
	waitErr error
	ours    bool // the recorder ended because Wisp stopped it
}

// first waits for the recorder's first bytes (or its exit, or startTimeout) and
// sets up the reading: raw PCM, or an AU stream (what pw-record writes to stdout
// when it does not write raw) whose header is read and whose samples are swapped
// to little-endian.
func (r *processReader) first() error {
	type result struct {
		head []byte
		err  error
	}
	got := make(chan result, 1)
	br := bufio.NewReaderSize(r.pipe, 4096)
	go func() {
		head, err := br.Peek(4)
		got <- result{head, err}
	}()
	timer := time.NewTimer(startTimeout)
	defer timer.Stop()
	var res result
	select {
	case res = <-got:
	case <-timer.C:
		r.cancel() // kills the group; the Peek ends with the pipe
		<-got
		return fmt.Errorf("%s gave no audio within %s", r.name, startTimeout)
	}
	if res.err != nil {
		r.wait()
		return r.exitError("did not start")
	}
	switch string(res.head) {
	case ".snd":
		return r.readAU(br, binary.BigEndian)
	case "dns.":
		return r.readAU(br, binary.LittleEndian)
	}
	r.in = br
	return nil
}

// readAU reads an AU header (24 bytes, then up to the data offset) and checks that
// the stream is Speech PCM.
func (r *processReader) readAU(br *bufio.Reader, order binary.ByteOrder) error {
	var h [24]byte
	if _, err := io.ReadFull(br, h[:]); err != nil {
		r.wait()
		return r.exitError("stopped in its header")
	}
	offset := order.Uint32(h[4:])
	encoding, rate, channels := order.Uint32(h[12:]), order.Uint32(h[16:]), order.Uint32(h[20:])
	const auLinear16 = 3
	if encoding != auLinear16 || int(rate) != Speech.Rate || int(channels) != Speech.Channels || offset < 24 || offset > 4096 {
		return fmt.Errorf("%s gave audio of encoding %d, %d Hz, %d channels: expected 16-bit, %d Hz, mono",
			r.name, encoding, rate, channels, Speech.Rate)
	}
	if _, err := br.Discard(int(offset) - 24); err != nil {
		r.wait()
		return r.exitError("stopped in its header")
	}
	r.in = br
	if order == binary.BigEndian {
		r.in = &swapReader{r: br}
	}
	return nil
}

// Read gives the recorder's PCM; when it ends, an exit the reader did not cause is
// an error naming the recorder and its last stderr line.
func (r *processReader) Read(p []byte) (int, error) {
	if r.closed.Load() {
		return 0, io.EOF
	}
	n, err := r.in.Read(p)
	if err == nil || n > 0 {
		return n, nil
	}
	r.wait()
	if r.ours {
		return 0, io.EOF // stopped: by Close, the caller's context, or the limit
	}
	if r.waitErr != nil {
		return 0, r.exitError("stopped")
	}
	return 0, io.EOF
}

// Close kills the recorder's group and reaps it.
func (r *processReader) Close() error {
	r.closed.Store(true)
	r.cancel()
	r.wait()
	return nil
}

// wait reaps the recorder once.
func (r *processReader) wait() {
	r.once.Do(func() {
		r.waitErr = r.cmd.Wait()
		r.ours = r.ctx.Err() != nil
		r.pipe.Close()
		r.cancel()
		if r.limit != nil {
			r.limit.Stop()
		}
	})
}

// exitError says that the recorder did what, with the last line it wrote to stderr.
func (r *processReader) exitError(what string) error {
	msg := fmt.Sprintf("%s %s", r.name, what)
	if r.waitErr != nil {
		msg += " (" + r.waitErr.Error() + ")"
	}
	if line := r.stderr.lastLine(); line != "" {
		msg += ": " + line
	}
	return errors.New(msg)
}

// boundedBuffer keeps the last max bytes written to it.
type boundedBuffer struct {
	mu  sync.Mutex
	max int
	buf []byte
}

func (b *boundedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.buf = append(b.buf, p...)
	if over := len(b.buf) - b.max; over > 0 {
		b.buf = append(b.buf[:0], b.buf[over:]...)
	}
	return len(p), nil
}

// lastLine is the last non-empty line written, bounded to 300 bytes.
func (b *boundedBuffer) lastLine() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	lines := bytes.Split(bytes.TrimSpace(b.buf), []byte("\n"))
	line := strings.TrimSpace(string(lines[len(lines)-1]))
	if len(line) > 300 {
		line = line[:300]
	}
	return strings.ToValidUTF8(line, "?")
}

// swapReader swaps the bytes of each 16-bit sample (big-endian to little-endian).
type swapReader struct {
	r    io.Reader
	odd  bool // a byte is held back
	held byte
}

func (s *swapReader) Read(p []byte) (int, error) {
	if len(p) < 2 {
		return 0, io.ErrShortBuffer
	}
	start := 0
	if s.odd {
		p[0] = s.held
		start = 1
	}
	n, err := s.r.Read(p[start:])
	n += start
	s.odd = n%2 == 1
	if s.odd {
		n--
		s.held = p[n]
	}
	for i := 0; i+1 < n; i += 2 {
		p[i], p[i+1] = p[i+1], p[i]
	}
	if n == 0 && err == nil {
		return s.Read(p)
	}
	return n, err
}
