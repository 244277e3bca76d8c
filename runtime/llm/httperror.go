package llm

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"syscall"
)

// maxErrorBody bounds how much of an error response is read for its message.
const maxErrorBody = 64 << 10

// exchange follows one streaming request through an SDK so that its failure can be
// classified: whether the server answered at all, and what its error body said.
// It is used from the goroutine that calls Stream only.
type exchange struct {
	provider  string
	responded bool
}

// middleware sees the HTTP response before the SDK does. An error status becomes an
// *Error carrying the provider's own message, whatever the body's shape (OpenAI,
// Anthropic, Ollama's {"error": "..."}, or plain text), so no SDK error type leaks.
// Its signature matches option.Middleware of both SDKs.
func (x *exchange) middleware(req *http.Request, next func(*http.Request) (*http.Response, error)) (*http.Response, error) {
	res, err := next(req)
	if err != nil {
		return nil, err
	}
	x.responded = true
	if res.StatusCode < 400 {
		return res, nil
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(res.Body, maxErrorBody))
	perr := parseErrorBody(body)
	return nil, &Error{
		Kind:     perr.refine(kindForStatus(res.StatusCode)),
		Status:   res.StatusCode,
		Provider: x.provider,
		Message:  perr.Message,
	}
}

// fail turns an error from the SDK or the transport into what Stream returns: the
// context's error when it is done, an *Error otherwise.
func (x *exchange) fail(ctx context.Context, err error) error {
	if ctxErr := ctx.Err(); ctxErr != nil {
		return ctxErr
	}
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	if !x.responded {
		return &Error{Kind: KindUnavailable, Provider: x.provider, Message: connectCause(err), Err: err}
	}
	return &Error{Kind: KindStream, Provider: x.provider, Err: err}
}

// truncated is the error for a stream that ended cleanly but without its terminating
// event: the server or a proxy gave up part-way.
func (x *exchange) truncated() error {
	return &Error{Kind: KindStream, Provider: x.provider, Err: io.ErrUnexpectedEOF}
}

// eventError is the error for an error event sent in the middle of a stream.
func (x *exchange) eventError(data []byte, fallbackType string) error {
	perr := parseErrorBody(data)
	typ := perr.Type
	if typ == "" {
		typ = fallbackType
	}
	kind := kindForType(typ)
	if perr.Code >= 400 {
		kind = kindForStatus(perr.Code)
	}
	msg := perr.Message
	if msg == "" {
		msg = typ
	}
	return &Error{Kind: perr.refine(kind), Provider: x.provider, Message: msg}
}

// kindForStatus classifies an HTTP error status.
func kindForStatus(status int) ErrorKind {
	switch {
	case status == http.StatusUnauthorized || status == http.StatusForbidden:
		return KindAuth
	case status == http.StatusTooManyRequests:
		return KindRateLimit
	case status >= 500:
		return KindServer // includes Anthropic's 529 overloaded
	default:
		return KindBadRequest
	}
}

// kindForType classifies the error type of an error event (Anthropic's and OpenAI's
// words); unknown types count as server errors.
func kindForType(typ string) ErrorKind {
	switch typ {
	case "authentication_error", "permission_error", "invalid_api_key":
		return KindAuth
	case "rate_limit_error", "rate_limit_exceeded":
		return KindRateLimit
	case "invalid_request_error", "not_found_error", "request_too_large", "context_length_exceeded":
		return KindBadRequest
	default:
		return KindServer
	}
}

// providerError is what an error body says.
type providerError struct {
	Message  string
	Type     string
	Code     int    // a numeric code that is an HTTP status (OpenRouter), else 0
	CodeText string // a string code (OpenAI's "context_length_exceeded"), else ""
}

// parseErrorBody reads the error shapes providers use:
// OpenAI {"error": {"message", "type", "code"}}, Anthropic {"type": "error", "error":
// {"type", "message"}}, Ollama {"error": "..."}, {"message": "..."}, or plain text.
func parseErrorBody(body []byte) providerError {
	body = []byte(strings.TrimSpace(string(body)))
	var env struct {
		Error   json.RawMessage `json:"error"`
		Message string          `json:"message"`
		Detail  string          `json:"detail"`
	}
	if err := json.Unmarshal(body, &env); err != nil {
		return providerError{Message: plainMessage(body)}
	}
	if len(env.Error) > 0 {
		var text string
		if json.Unmarshal(env.Error, &text) == nil {
			return providerError{Message: text}
		}
		var obj struct {
			Message string          `json:"message"`
			Type    string          `json:"type"`
			Code    json.RawMessage `json:"code"`
		}
		if json.Unmarshal(env.Error, &obj) == nil {
			perr := providerError{Message: obj.Message, Type: obj.Type}
			if code, err := strconv.Atoi(string(obj.Code)); err == nil && code >= 400 && code < 600 {
				perr.Code = code
			} else if json.Unmarshal(obj.Code, &perr.CodeText) == nil && perr.Type == "" {
				perr.Type = perr.CodeText // OpenAI sometimes only sets a string code
			}
			return perr
		}
	}
	if env.Message != "" {
		return providerError{Message: env.Message}
	}
	return providerError{Message: env.Detail}
}

// plainMessage keeps a short plain-text error body, but not an HTML page.
func plainMessage(body []byte) string {
	text := strings.TrimSpace(string(body))
	if strings.HasPrefix(text, "<") {
		return ""
	}
	if line, _, ok := strings.Cut(text, "\n"); ok {
		text = line
	}
	const maxLen = 300
	if len(text) > maxLen {
		text = text[:maxLen] + "…"
	}
	return text
}

// connectCause says briefly why a connection could not be made.
func connectCause(err error) string {
	var dnsErr *net.DNSError
	var netErr net.Error
	switch {
	case errors.Is(err, syscall.ECONNREFUSED):
		return "connection refused"
	case errors.As(err, &dnsErr):
		return "host " + dnsErr.Name + " not found"
	case errors.Is(err, syscall.ECONNRESET):
		return "connection reset"
	case errors.As(err, &netErr) && netErr.Timeout():
		return "timed out"
	}
	var urlErr *url.Error
	if errors.As(err, &urlErr) {
		return urlErr.Err.Error()
	}
	return err.Error()
}
