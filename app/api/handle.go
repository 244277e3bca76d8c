package api

import (
	"bufio"
	"encoding/json"
	"errors"
	"log/slog"
	"mime"
	"net"
	"net/http"
	"runtime/debug"
	"time"

	"github.com/wispapp/wisp/app/wire"
)

// handlerFunc is the shape of every API handler.
type handlerFunc func(w http.ResponseWriter, r *http.Request) error

// MaxBodyBytes caps every request body.
const MaxBodyBytes = 1 << 20

// handle adapts a handlerFunc: it checks the token (unless public), enforces JSON
// bodies on state-changing requests, and turns a returned error into a JSON body.
func (s *Server) handle(fn handlerFunc) http.Handler { return s.adapt(fn, false) }

// public is handle without the token check.
func (s *Server) public(fn handlerFunc) http.Handler { return s.adapt(fn, true) }

func (s *Server) adapt(fn handlerFunc, public bool) http.Handler {
	return s.adaptWith(fn, public, wispError)
}

// errorShape is how the errors of an API family look: the body of an error whose
// status and client message are status and msg (statusOf). err is the error itself,
// for a family whose own errors carry more (compat.Error's type and code).
type errorShape func(status int, msg string, err error) any

// wispError is Wisp's own error shape: {"error": "..."}.
func wispError(_ int, msg string, _ error) any { return wire.ErrorBody{Error: msg} }

// adaptWith checks the request, runs fn and writes its error (the check's included)
// in shape: each API family has its error shape, and writeError is the one writer.
func (s *Server) adaptWith(fn handlerFunc, public bool, shape errorShape) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		err := s.checkRequest(r, public)
		if err == nil {
			err = fn(w, r)
		}
		if err != nil {
			s.writeError(w, r, err, shape)
		}
	})
}

func (s *Server) checkRequest(r *http.Request, public bool) error {
	if !public && !s.guard.authorizedRequest(r) {
		return Errorf(http.StatusUnauthorized, "missing or invalid API token: send Authorization: Bearer <token> or X-Api-Key")
	}
	if changesState(r.Method) && rawBody(r) {
		return uploadTypeAllowed(r) // the handler bounds the body
	}
	if changesState(r.Method) {
		if !jsonOrNothing(r) {
			return Errorf(http.StatusUnsupportedMediaType, "request body must be application/json")
		}
		if limit := bodyLimit(r); r.ContentLength > limit {
			return Errorf(http.StatusRequestEntityTooLarge, "request body is larger than %d bytes", limit)
		}
	}
	return nil
}

func changesState(method string) bool {
	switch method {
	case http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete:
		return true
	}
	return false
}

// jsonOrNothing reports whether a state-changing request carries JSON, or no body and
// no Content-Type at all (a fetch without a body). Any other Content-Type is refused
// whatever the body's length: a browser sends form and text/plain requests to another
// site without asking it first, and an empty one must not reach a handler either.
func jsonOrNothing(r *http.Request) bool {
	types := r.Header.Values("Content-Type")
	if len(types) == 0 {
		return r.ContentLength == 0
	}
	if len(types) > 1 {
		return false
	}
	mt, _, err := mime.ParseMediaType(types[0])
	return err == nil && mt == "application/json"
}

// writeError writes err in shape: its status and message (statusOf; an internal
// failure is logged and says only "internal error").
func (s *Server) writeError(w http.ResponseWriter, r *http.Request, err error, shape errorShape) {
	status, msg, ok := statusOf(err)
	if !ok {
		s.log.Error("request failed", "method", r.Method, "path", r.URL.Path, "err", err)
	}
	if sw, ok := w.(*statusWriter); ok && sw.wrote {
		return // headers are out (e.g. a stream or an upgrade): nothing more to say here
	}
	writeJSON(w, status, shape(status, msg, err))
}

func writeJSON(w http.ResponseWriter, status int, v any) error {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	return json.NewEncoder(w).Encode(v)
}

// decodeJSON reads a JSON object body into v, rejecting unknown shapes with 400. The
// body may be as big as the route allows (bodyLimit).
func decodeJSON(w http.ResponseWriter, r *http.Request, v any) error {
	if r.ContentLength == 0 && r.Body == http.NoBody {
		return Errorf(http.StatusBadRequest, "request body is required")
	}
	dec := json.NewDecoder(http.MaxBytesReader(w, r.Body, bodyLimit(r)))
	if err := dec.Decode(v); err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			return err
		}
		return Errorf(http.StatusBadRequest, "invalid JSON body: %v", err)
	}
	if dec.More() {
		return Errorf(http.StatusBadRequest, "invalid JSON body: more than one value")
	}
	return nil
}

// statusWriter records what a handler wrote, for the request log line. It passes
// Hijack (WebSocket upgrades) and Flush (streams) through.
type statusWriter struct {
	http.ResponseWriter
	status int
	bytes  int64
	wrote  bool
}

func (w *statusWriter) WriteHeader(code int) {
	if !w.wrote {
		w.status, w.wrote = code, true
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(b []byte) (int, error) {
	if !w.wrote {
		w.status, w.wrote = http.StatusOK, true
	}
	n, err := w.ResponseWriter.Write(b)
	w.bytes += int64(n)
	return n, err
}

func (w *statusWriter) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

func (w *statusWriter) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	h, ok := w.ResponseWriter.(http.Hijacker)
	if !ok {
		return nil, nil, errors.New("response writer cannot be hijacked")
	}
	w.status, w.wrote = http.StatusSwitchingProtocols, true
	return h.Hijack()
}

func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// observe is the outermost layer: nosniff on every response, panic recovery and one
// log line per request.
func (s *Server) observe(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		// No response is to be read as anything but its declared type (a JSON error
		// sniffed as HTML, a file as a script).
		w.Header().Set("X-Content-Type-Options", "nosniff")
		sw := &statusWriter{ResponseWriter: w}
		defer func() {
			if p := recover(); p != nil {
				if p == http.ErrAbortHandler {
					panic(p)
				}
				s.log.Error("panic in handler", "method", r.Method, "path", r.URL.Path, "panic", p, "stack", string(debug.Stack()))
				if !sw.wrote {
					writeJSON(sw, http.StatusInternalServerError, map[string]string{"error": "internal error"})
				}
			}
			level := slog.LevelInfo
			if sw.status >= 500 {
				level = slog.LevelError
			} else if r.URL.Path == "/api/status" || r.URL.Path == "/api/health" || !isAPIPath(r.URL.Path) {
				level = slog.LevelDebug // polled and static requests would drown the log
			}
			s.log.Log(r.Context(), level, "http request", "method", r.Method, "path", r.URL.Path,
				"status", sw.status, "bytes", sw.bytes, "dur", time.Since(start).Round(time.Microsecond))
		}()
		next.ServeHTTP(sw, r)
	})
}
