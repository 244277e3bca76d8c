package llm

import (
	"errors"
	"fmt"
	"strings"
)

// ErrorKind classifies provider failures so the chat can explain them.
type ErrorKind string

// The kinds of provider failure.
const (
	KindAuth        ErrorKind = "auth"        // 401/403: key missing or wrong
	KindRateLimit   ErrorKind = "rate_limit"  // 429
	KindServer      ErrorKind = "server"      // 5xx or an overloaded provider
	KindBadRequest  ErrorKind = "bad_request" // 400/404/422: model name, parameters
	KindStream      ErrorKind = "stream"      // the stream broke or ended early
	KindUnavailable ErrorKind = "unavailable" // cannot connect
	// KindContextLength: the request's prompt (with the reply's room) does not fit the
	// model's context window. Shortening the conversation and asking again can work.
	KindContextLength ErrorKind = "context_length"
)

// IsContextTooLong reports whether err is, or wraps, a provider's answer that the
// request does not fit the model's context window.
func IsContextTooLong(err error) bool {
	var e *Error
	return errors.As(err, &e) && e.Kind == KindContextLength
}

// Error is a provider failure with a message fit for the user.
type Error struct {
	Kind     ErrorKind
	Status   int    // HTTP status when there was one
	Provider string // "openai", "anthropic", "ollama"
	// Message is what the provider said, if anything; for KindUnavailable and
	// KindStream without a provider message, a short cause ("connection refused").
	Message string
	Err     error
}

// Error reads as one or two sentences, for example "The anthropic model provider's
// stream was cut off before the reply finished." or "The openai model provider is rate
// limiting requests (HTTP 429): Rate limit reached for gpt-4o. Try again shortly."
func (e *Error) Error() string {
	provider := "The model provider"
	if e.Provider != "" {
		provider = "The " + e.Provider + " model provider"
	}
	var b strings.Builder
	b.WriteString(provider)
	switch e.Kind {
	case KindAuth:
		b.WriteString(" rejected the API key")
	case KindRateLimit:
		b.WriteString(" is rate limiting requests")
	case KindServer:
		b.WriteString(" had a server error")
	case KindBadRequest:
		b.WriteString(" rejected the request")
	case KindStream:
		b.WriteString("'s stream was cut off before the reply finished")
	case KindContextLength:
		b.WriteString(" said the conversation is too long for the model's context window")
	default:
		b.WriteString(" could not be reached")
	}
	if e.Status != 0 {
		fmt.Fprintf(&b, " (HTTP %d)", e.Status)
	}
	if msg := strings.TrimSpace(e.Message); msg != "" {
		b.WriteString(": ")
		b.WriteString(msg)
	}
	if !strings.HasSuffix(b.String(), ".") && !strings.HasSuffix(b.String(), "!") && !strings.HasSuffix(b.String(), "?") {
		b.WriteString(".")
	}
	if e.Kind == KindRateLimit || e.Kind == KindServer {
		b.WriteString(" Try again shortly.")
	}
	return b.String()
}

func (e *Error) Unwrap() error { return e.Err }
