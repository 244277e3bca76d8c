package proactive

import "fmt"

// Error is a failure the API shows with a status code.
type Error struct {
	Status int
	Msg    string
}

func (e *Error) Error() string   { return e.Msg }
func (e *Error) HTTPStatus() int { return e.Status }

func errorf(status int, format string, args ...any) *Error {
	return &Error{Status: status, Msg: fmt.Sprintf(format, args...)}
}
