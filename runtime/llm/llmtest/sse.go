package llmtest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"time"
)

// errGone says the client or the server went away mid-reply.
var errGone = errors.New("llmtest: connection gone")

// eventWriter writes one server-sent event stream for a turn: it flushes after every
// event, sleeps Delay between chunks, and cuts or hangs as the turn says.
type eventWriter struct {
	w      http.ResponseWriter
	ctx    context.Context // the request's
	done   <-chan struct{} // the server's
	turn   Turn
	chunks int // chunks sent so far
}

func (s *Server) newEventWriter(w http.ResponseWriter, r *http.Request, t Turn) *eventWriter {
	return &eventWriter{w: w, ctx: r.Context(), done: s.done, turn: t}
}

// start sends the headers.
func (e *eventWriter) start() {
	h := e.w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-cache")
	e.w.WriteHeader(http.StatusOK)
	e.flush()
}

// hang waits until the client or the server goes away.
func (e *eventWriter) hang() error {
	select {
	case <-e.ctx.Done():
	case <-e.done:
	}
	return errGone
}

// event sends one event; name "" leaves out the event line (OpenAI's style).
func (e *eventWriter) event(name string, v any) error {
	data, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return e.raw(name, data)
}

func (e *eventWriter) raw(name string, data []byte) error {
	if name != "" {
		if _, err := fmt.Fprintf(e.w, "event: %s\n", name); err != nil {
			return errGone
		}
	}
	if _, err := fmt.Fprintf(e.w, "data: %s\n\n", data); err != nil {
		return errGone
	}
	e.flush()
	return nil
}

// chunk sends one content piece: after Delay if it is not the first, and cutting the
// connection once CutAfter pieces are out.
func (e *eventWriter) chunk(name string, v any) error {
	if e.chunks > 0 {
		if err := e.wait(e.turn.Delay); err != nil {
			return err
		}
	}
	if err := e.event(name, v); err != nil {
		return err
	}
	e.chunks++
	if e.turn.CutAfter > 0 && e.chunks >= e.turn.CutAfter {
		return errCut
	}
	return nil
}

func (e *eventWriter) wait(d time.Duration) error {
	if d <= 0 {
		return nil
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-e.ctx.Done():
	case <-e.done:
	}
	return errGone
}

func (e *eventWriter) flush() {
	if f, ok := e.w.(http.Flusher); ok {
		f.Flush()
	}
}

// writeJSON answers a non-streamed request.
func writeJSON(w http.ResponseWriter, status int, v any) error {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	return json.NewEncoder(w).Encode(v)
}

// httpStatusText is the status text, including Anthropic's 529.
func httpStatusText(status int) string {
	if status == 529 {
		return "Overloaded"
	}
	if text := http.StatusText(status); text != "" {
		return text
	}
	return fmt.Sprintf("HTTP %d", status)
}

// errorType is the provider error type for an HTTP status, in both providers' words
// where they differ.
func errorType(protocol string, status int) string {
	switch status {
	case 400, 422:
		return "invalid_request_error"
	case 401:
		return "authentication_error"
	case 403:
		return "permission_error"
	case 404:
		return "not_found_error"
	case 413:
		return "request_too_large"
	case 429:
		return "rate_limit_error"
	case 529:
		return "overloaded_error"
	}
	if protocol == ProtocolOpenAI {
		return "server_error"
	}
	return "api_error"
}
