// Package httperr is the one error type Wisp's services return when the API should
// answer with a particular status code and message.
package httperr

import "fmt"

// Error is a failure the API shows with a status code.
type Error struct {
	Status int
	Msg    string
}

func (e *Error) Error() string { return e.Msg }

// HTTPStatus is the status code to answer with.
func (e *Error) HTTPStatus() int { return e.Status }

// New builds an Error, formatting its message.
func New(status int, format string, args ...any) *Error {
	return &Error{Status: status, Msg: fmt.Sprintf(format, args...)}
}
