package api

import (
	"context"
	"net/http"
	"strconv"
	"time"
)

// sseHeartbeat is how often an idle stream gets a comment, so proxies and clients
// know it is alive.
const sseHeartbeat = 5 * time.Second

// sseWriter writes one Server-Sent Events response. The handler's goroutine is its
// only writer: heartbeats are written between frames, when waiting for the next frame
// reaches the heartbeat deadline.
type sseWriter struct {
	w     http.ResponseWriter
	rc    *http.ResponseController
	buf   []byte
	beat  context.Context
	stopB context.CancelFunc
}

func startSSE(w http.ResponseWriter) (*sseWriter, error) {
	h := w.Header()
	h.Set("Content-Type", "text/event-stream; charset=utf-8")
	h.Set("Cache-Control", "no-cache, no-transform")
	h.Set("X-Accel-Buffering", "no")
	h.Set("Connection", "keep-alive")
	w.WriteHeader(http.StatusOK)
	s := &sseWriter{w: w, rc: http.NewResponseController(w), buf: make([]byte, 0, 4096)}
	return s, s.comment("heartbeat")
}

// ctx is the request's context with the next heartbeat as deadline: when it expires
// the stream writes a heartbeat and the caller waits again.
func (s *sseWriter) ctx(r *http.Request) context.Context {
	if s.beat == nil || s.beat.Err() != nil {
		if s.beat != nil && r.Context().Err() == nil {
			_ = s.comment("heartbeat")
		}
		if s.stopB != nil {
			s.stopB()
		}
		s.beat, s.stopB = context.WithTimeout(r.Context(), sseHeartbeat)
	}
	return s.beat
}

func (s *sseWriter) stop() {
	if s.stopB != nil {
		s.stopB()
	}
}

func (s *sseWriter) comment(text string) error {
	s.buf = append(append(append(s.buf[:0], ": "...), text...), "\n\n"...)
	return s.flush()
}

// frame writes `id: <seq>` and one `data:` line (data is JSON, so it has no newline),
// flushing it to the client when flush is set.
func (s *sseWriter) frame(seq int64, data []byte, flush bool) error {
	b := append(s.buf[:0], "id: "...)
	b = strconv.AppendInt(b, seq, 10)
	b = append(b, "\ndata: "...)
	b = append(b, data...)
	s.buf = append(b, "\n\n"...)
	if _, err := s.w.Write(s.buf); err != nil {
		return err
	}
	if !flush {
		return nil
	}
	return s.rc.Flush()
}

// raw writes SSE text that is already framed (seed 003's named events), flushing it
// when flush is set.
func (s *sseWriter) raw(text []byte, flush bool) error {
	if _, err := s.w.Write(text); err != nil {
		return err
	}
	if !flush {
		return nil
	}
	return s.rc.Flush()
}

// event writes a named event (the Anthropic dialect).
func (s *sseWriter) event(name string, data []byte) error {
	b := append(s.buf[:0], "event: "...)
	b = append(b, name...)
	b = append(b, "\ndata: "...)
	b = append(b, data...)
	s.buf = append(b, "\n\n"...)
	return s.flush()
}

// data writes an unnamed event with no id (the OpenAI dialect).
func (s *sseWriter) data(data []byte) error {
	b := append(s.buf[:0], "data: "...)
	b = append(b, data...)
	s.buf = append(b, "\n\n"...)
	return s.flush()
}

func (s *sseWriter) flush() error {
	if _, err := s.w.Write(s.buf); err != nil {
		return err
	}
	return s.rc.Flush()
}
