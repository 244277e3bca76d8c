package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"sync/atomic"
	"time"

	"github.com/gorilla/websocket"
)

// frame is a /ws frame as the client decodes it: every terminal-output field
// (docs/terminal.md), and the type of the others.
type frame struct {
	Type    string `json:"type"`
	RunID   string `json:"runId"`
	Event   string `json:"event"`
	Seq     int64  `json:"seq"`
	Data    string `json:"data"`
	Command string `json:"command"` // start events
	Code    int    `json:"code"`
	Message string `json:"message"` // error frames

	// DataLen is how many bytes Data decodes to; with the counting decoder
	// (--client=count) Data of a large output event is left empty.
	DataLen int `json:"-"`
}

// wsClient is the benchmark's socket on /ws. It is read by one goroutine at a
// time (the measurement in progress) and decodes frames with encoding/json,
// except, with counting, the data of large output events (see
// decodeCounting). The time spent decoding is counted so that the client's
// own cost can be told apart from Wisp's.
type wsClient struct {
	conn     *websocket.Conn
	buf      bytes.Buffer // the last frame read
	counting bool         // --client=count: large output events are only counted

	interrupted atomic.Bool

	wire   int64         // frame bytes read since the last reset
	frames int64         // frames read since the last reset
	decode time.Duration // time spent decoding since the last reset
}

// dialWS connects with the API token and waits for the first status frame, after
// which the hub sends this client its events.
func dialWS(ctx context.Context, url, token string, counting bool) (*wsClient, error) {
	d := websocket.Dialer{HandshakeTimeout: 10 * time.Second, ReadBufferSize: 64 << 10, WriteBufferSize: 4 << 10}
	conn, resp, err := d.DialContext(ctx, url, http.Header{"Authorization": {"Bearer " + token}})
	if err != nil {
		if resp != nil {
			body, _ := io.ReadAll(io.LimitReader(resp.Body, 1024))
			return nil, fmt.Errorf("dial %s: %w (status %d: %s)", url, err, resp.StatusCode, bytes.TrimSpace(body))
		}
		return nil, fmt.Errorf("dial %s: %w", url, err)
	}
	c := &wsClient{conn: conn, counting: counting}
	deadline := time.Now().Add(10 * time.Second)
	for {
		f, err := c.next(deadline)
		if err != nil {
			conn.Close()
			return nil, fmt.Errorf("waiting for the status frame: %w", err)
		}
		if f.Type == "status" {
			return c, nil
		}
	}
}

func (c *wsClient) close() {
	_ = c.conn.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(websocket.CloseNormalClosure, ""), time.Now().Add(time.Second))
	_ = c.conn.Close()
}

// interrupt makes a pending or next read fail at once (the socket is then
// unusable); it may be called from another goroutine.
func (c *wsClient) interrupt() {
	c.interrupted.Store(true)
	_ = c.conn.SetReadDeadline(time.Now())
}

func (c *wsClient) resetCounters() { c.wire, c.frames, c.decode = 0, 0, 0 }

// next reads and decodes one frame, waiting until deadline at most.
func (c *wsClient) next(deadline time.Time) (frame, error) {
	var f frame
	_ = c.conn.SetReadDeadline(deadline)
	if c.interrupted.Load() {
		return f, errors.New("interrupted")
	}
	kind, r, err := c.conn.NextReader()
	if err != nil {
		var ce *websocket.CloseError
		if errors.As(err, &ce) && ce.Code == websocket.CloseTryAgainLater {
			return f, &droppedError{ce.Text}
		}
		if errors.As(err, &ce) {
			return f, fmt.Errorf("the server closed the socket: %d %q", ce.Code, ce.Text)
		}
		return f, err
	}
	c.buf.Reset()
	if _, err := c.buf.ReadFrom(r); err != nil {
		return f, err
	}
	if kind != websocket.TextMessage {
		return f, fmt.Errorf("unexpected binary frame of %d bytes", c.buf.Len())
	}
	c.wire += int64(c.buf.Len())
	c.frames++
	start := time.Now()
	if c.counting && c.buf.Len() > countingFrom {
		f.DataLen, err = decodeCounting(c.buf.Bytes(), &f)
	} else {
		err = json.Unmarshal(c.buf.Bytes(), &f)
		f.DataLen = len(f.Data)
	}
	c.decode += time.Since(start)
	if err != nil {
		return f, fmt.Errorf("frame is not JSON (%v): %.200q", err, c.buf.Bytes())
	}
	return f, nil
}

// droppedError is the hub closing the socket with 1013: the client did not
// keep up with what was queued for it.
type droppedError struct{ text string }

func (e *droppedError) Error() string {
	return fmt.Sprintf("the server closed the socket: 1013 %q", e.text)
}

// countingFrom is the frame size above which --client=count only counts the
// data: smaller frames, keystroke echoes among them, are decoded in full.
const countingFrom = 4 << 10

// send writes one frame.
func (c *wsClient) send(v any) error {
	_ = c.conn.SetWriteDeadline(time.Now().Add(5 * time.Second))
	return c.conn.WriteJSON(v)
}

// runStream is what the socket showed of one run.
type runStream struct {
	runID          string
	stdout, stderr int64 // decoded bytes of data
	stdoutEvents   int
	exitCode       int
	exited         bool
	failure        string // an error event's data, or a broken sequence
	lastSeq        int64
	echo           []byte // the first bytes of stdout (for the keystroke check)
	last           string // the data of the last stdout event (empty if only counted)
}

// observe adds one terminal-output frame of the run to s and reports whether
// it ended the run. Events must be numbered 1, 2, 3, … with no gap.
func (s *runStream) observe(f frame) bool {
	if f.Seq != s.lastSeq+1 && s.failure == "" {
		s.failure = fmt.Sprintf("event %q has seq %d after %d", f.Event, f.Seq, s.lastSeq)
	}
	s.lastSeq = f.Seq
	switch f.Event {
	case "stdout":
		s.stdout += int64(f.DataLen)
		s.stdoutEvents++
		s.last = f.Data
		if len(s.echo) < 64 {
			s.echo = append(s.echo, f.Data[:min(len(f.Data), 64-len(s.echo))]...)
		}
	case "stderr":
		s.stderr += int64(f.DataLen)
	case "exit":
		s.exited, s.exitCode = true, f.Code
		return true
	case "error":
		if s.failure == "" {
			s.failure = "error event: " + f.Data
		}
		return true
	}
	return false
}

// follow reads frames until the run's exit (or error) event, or until the
// deadline. Frames of other runs and other types are read and skipped; an
// error frame from the hub fails the wait.
func (c *wsClient) follow(runID string, s *runStream, deadline time.Time) error {
	for {
		f, err := c.next(deadline)
		if err != nil {
			return err
		}
		switch {
		case f.Type == "terminal-output" && f.RunID == runID:
			if s.observe(f) {
				return nil
			}
		case f.Type == "error":
			return fmt.Errorf("the hub answered with an error: %s", f.Message)
		}
	}
}

// readStdout reads frames of the run until at least n more stdout bytes have
// arrived, and returns the time they took to come, measured from start.
func (c *wsClient) readStdout(runID string, s *runStream, n int64, start, deadline time.Time) (time.Duration, error) {
	want := s.stdout + n
	for s.stdout < want {
		f, err := c.next(deadline)
		if err != nil {
			return 0, err
		}
		switch {
		case f.Type == "terminal-output" && f.RunID == runID:
			if s.observe(f) {
				return 0, fmt.Errorf("the run ended (exit %d %s)", s.exitCode, s.failure)
			}
		case f.Type == "error":
			return 0, fmt.Errorf("the hub answered with an error: %s", f.Message)
		}
	}
	return time.Since(start), nil
}
