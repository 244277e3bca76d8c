package api

import (
	"errors"
	"fmt"
	"net/http"

	"github.com/wispapp/wisp/app/compat"
	"github.com/wispapp/wisp/internal/fault"
	"github.com/wispapp/wisp/runtime/llm"
)

// Error is a failure of the HTTP layer itself (a missing token, a body that is not
// JSON) with the status code the client should see. Services return fault errors
// instead, which statusOf maps.
type Error struct {
	Status int
	Msg    string
}

func (e *Error) Error() string { return e.Msg }

// Errorf builds an Error.
func Errorf(status int, format string, args ...any) *Error {
	return &Error{Status: status, Msg: fmt.Sprintf(format, args...)}
}

// faultStatus is the one mapping from a fault's kind to an HTTP status.
var faultStatus = map[fault.Kind]int{
	fault.Invalid:         http.StatusBadRequest,
	fault.NotFound:        http.StatusNotFound,
	fault.Conflict:        http.StatusConflict,
	fault.Unavailable:     http.StatusServiceUnavailable,
	fault.Forbidden:       http.StatusForbidden,
	fault.Unauthenticated: http.StatusUnauthorized,
	fault.Limited:         http.StatusTooManyRequests,
	fault.TooLarge:        http.StatusRequestEntityTooLarge,
	fault.Upstream:        http.StatusBadGateway,
}

// statusOf is the status and message a client gets for err; ok is false for an
// internal failure, whose message stays in the log. The model's own failures (a
// refused key, a rate limit, a broken stream) are not internal: they say what the
// provider said, as a gateway would (502, or 429 for a rate limit).
func statusOf(err error) (status int, msg string, ok bool) {
	var apiErr *Error
	var f *fault.Error
	var tooBig *http.MaxBytesError
	var model *llm.Error
	var foreign *compat.Error
	switch {
	case errors.As(err, &apiErr):
		return apiErr.Status, apiErr.Msg, true
	case errors.As(err, &foreign):
		return foreign.Status, foreign.Msg, true
	case errors.As(err, &tooBig):
		return http.StatusRequestEntityTooLarge, fmt.Sprintf("request body is larger than %d bytes", tooBig.Limit), true
	case errors.As(err, &f) && f.Kind != fault.Internal:
		return faultStatus[f.Kind], f.Msg, true
	case errors.As(err, &model) && model.Kind == llm.KindRateLimit:
		return http.StatusTooManyRequests, model.Error(), true
	case errors.As(err, &model):
		return http.StatusBadGateway, model.Error(), true
	}
	return http.StatusInternalServerError, "internal error", false
}

// clientMessage is what a client may read of err in a stream that has begun: its
// message, or "internal error" for a failure without a kind, whose detail is logged.
func (s *Server) clientMessage(r *http.Request, err error) string {
	_, msg, ok := statusOf(err)
	if !ok {
		s.log.Error("request failed", "method", r.Method, "path", r.URL.Path, "err", err)
	}
	return msg
}
