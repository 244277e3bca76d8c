// Package compat translates between Wisp's agent and two foreign chat APIs it serves:
// Anthropic's Messages API (/v1/messages, /v1/models) and OpenAI's chat completions
// (/v1/chat/completions). Its functions are pure: a request in, the history and text
// the agent answers; the agent's reply in, the foreign shapes out, errors included.
//
// It knows the LLM message type (runtime/llm) and nothing else of Wisp: no HTTP
// serving, no chat service (app/api does the I/O).
package compat

import (
	"fmt"

	"github.com/wispapp/wisp/runtime/llm"
)

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

// maxTokens bounds a token count the answers report: a provider's count is not
// trusted, and one that is negative or absurd is reported as 0.
const maxTokens = 1 << 30

// sane is u with every count 0 to maxTokens, and a prompt at least as large as what
// it read from and wrote to the cache (which are part of it).
func sane(u llm.Usage) llm.Usage {
	bound := func(n int) int {
		if n < 0 || n > maxTokens {
			return 0
		}
		return n
	}
	u = llm.Usage{InputTokens: bound(u.InputTokens), OutputTokens: bound(u.OutputTokens),
		CacheReadTokens: bound(u.CacheReadTokens), CacheWriteTokens: bound(u.CacheWriteTokens)}
	u.InputTokens = max(u.InputTokens, u.CacheReadTokens+u.CacheWriteTokens)
	return u
}
