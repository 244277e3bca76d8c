// Package fault says what kind of failure an error is (invalid input, not found, a
// conflict with the current state, unavailable now, ...) in words a caller can act on.
// Wisp's services return these; only app/api turns a kind into an HTTP status code, so
// no service needs to know about HTTP.
//
// It imports nothing of Wisp.
package fault

import (
	"errors"
	"fmt"
)

// Kind is what went wrong, from the caller's point of view.
type Kind uint8

// The kinds. The zero Kind, Internal, is a failure of Wisp itself.
const (
	Internal        Kind = iota // Wisp failed; the caller can only retry later
	Invalid                     // the request is wrong: fix it
	NotFound                    // what it names does not exist
	Conflict                    // the current state does not allow it (busy, already ended)
	Unavailable                 // Wisp cannot do it now (no model set up, shutting down)
	Forbidden                   // the settings do not allow it
	Unauthenticated             // a credential is missing or wrong
	Limited                     // too many at once: wait for one to end
	TooLarge                    // bigger than a documented limit: send less
	Upstream                    // a server Wisp relies on (a voice server) failed or refused
)

var kindNames = [...]string{"internal", "invalid", "not found", "conflict", "unavailable", "forbidden",
	"unauthenticated", "limited", "too large", "upstream"}

func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return fmt.Sprintf("kind %d", k)
}

// Errorf builds an error of kind k. Its message is shown to the user as it is; a %w
// verb wraps its argument, which errors.Is and errors.As then see.
func (k Kind) Errorf(format string, args ...any) error {
	err := fmt.Errorf(format, args...)
	return &Error{Kind: k, Msg: err.Error(), Err: errors.Unwrap(err)}
}

// Error is an error with a kind.
type Error struct {
	Kind Kind
	Msg  string
	Err  error // what it wraps, if anything
}

func (e *Error) Error() string { return e.Msg }

// Unwrap returns the wrapped error.
func (e *Error) Unwrap() error { return e.Err }

// KindOf is the kind of the first Error in err's chain; Internal when there is none.
func KindOf(err error) Kind {
	var e *Error
	if errors.As(err, &e) {
		return e.Kind
	}
	return Internal
}

// Is reports whether err is a fault of kind k.
func Is(err error, k Kind) bool { return err != nil && KindOf(err) == k }
