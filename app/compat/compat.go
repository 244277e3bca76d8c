// Package compat translates between Wisp's agent and two foreign chat APIs it serves:
// Anthropic's Messages API (/v1/messages, /v1/models) and OpenAI's chat completions
// (/v1/chat/completions). Its functions are pure: a request in, the history and text
// the agent answers; the agent's reply in, the foreign shapes out, errors included.
//
// It knows the LLM message type (runtime/llm) and nothing else of Wisp: no HTTP
// serving, no chat service (app/api does the I/O).
package compat

import "fmt"

// Error is a request the foreign API would refuse: its status, its type (and, for
// OpenAI, code) in that API's words, and its message.
type Error struct {
	Status int
	Type   string
	Code   string // OpenAI's code; "" for none
	Msg    string
}

func (e *Error) Error() string { return e.Msg }

func errorf(status int, typ, format string, args ...any) *Error {
	return &Error{Status: status, Type: typ, Msg: fmt.Sprintf(format, args...)}
}
