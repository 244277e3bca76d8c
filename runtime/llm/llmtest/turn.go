package llmtest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/wispapp/wisp/runtime/llm"
	"github.com/wispapp/wisp/runtime/llm/tokens"
)

// Turn scripts one reply. A reply streams, in order, the Thinking chunks, the Text
// chunks and the ToolCalls (each with its arguments split into at least two
// fragments); these pieces are the "chunks" Delay and CutAfter count.
//
// In JSON (fakellm scripts) fields are camelCase; "text" and "thinking" may also be a
// single string, split with Words; "delay" is a Go duration string ("20ms") or a
// number of milliseconds. Unknown fields are an error.
type Turn struct {
	Text      []string       `json:"text,omitempty"`     // visible answer, in chunks
	Thinking  []string       `json:"thinking,omitempty"` // reasoning, in chunks
	ToolCalls []llm.ToolCall `json:"toolCalls,omitempty"`
	Delay     time.Duration  `json:"-"` // between chunks
	// CutAfter > 0 drops the connection after this many chunks, without the
	// terminating event.
	CutAfter int `json:"cutAfter,omitempty"`
	// ErrorEvent, if set, is sent as a mid-stream error event after the chunks, in
	// place of the terminating events; ErrorType is its type (default
	// "overloaded_error" for Anthropic, "server_error" for OpenAI).
	ErrorEvent string `json:"errorEvent,omitempty"`
	ErrorType  string `json:"errorType,omitempty"`
	// Status >= 400 answers with an HTTP error in the provider's own error JSON,
	// saying ErrorMessage (default: the status text). ErrorMessage alone means 500.
	Status       int    `json:"status,omitempty"`
	ErrorMessage string `json:"errorMessage,omitempty"`
	// Usage is reported as is; when zero, the prompt tokens are the fake's count of
	// the request (Received.Tokens), the completion tokens its count of the reply,
	// and the cache tokens those below.
	Usage llm.Usage `json:"usage,omitzero"`
	// CacheReadTokens and CacheWriteTokens are reported as the part of the prompt
	// read from and written to a prompt cache, in each protocol's own fields
	// (OpenAI's prompt_tokens_details; Anthropic's cache_*_input_tokens).
	CacheReadTokens  int `json:"cacheReadTokens,omitempty"`
	CacheWriteTokens int `json:"cacheWriteTokens,omitempty"`
	// Hang sends the response headers and then nothing until the client goes away.
	Hang bool `json:"hang,omitempty"`
	// StopReason overrides the stop reason, in Anthropic's words ("max_tokens");
	// by default "tool_use" when there are tool calls, else "end_turn".
	StopReason string `json:"stopReason,omitempty"`
}

// UnmarshalJSON reads a scripted turn strictly; see Turn.
func (t *Turn) UnmarshalJSON(data []byte) error {
	type plain Turn
	var aux struct {
		plain
		Text     json.RawMessage `json:"text"`
		Thinking json.RawMessage `json:"thinking"`
		Delay    json.RawMessage `json:"delay"`
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&aux); err != nil {
		return err
	}
	*t = Turn(aux.plain)
	var err error
	if t.Text, err = chunksJSON(aux.Text); err != nil {
		return fmt.Errorf("text: %w", err)
	}
	if t.Thinking, err = chunksJSON(aux.Thinking); err != nil {
		return fmt.Errorf("thinking: %w", err)
	}
	if t.Delay, err = delayJSON(aux.Delay); err != nil {
		return fmt.Errorf("delay: %w", err)
	}
	return nil
}

// MarshalJSON writes the form UnmarshalJSON reads, with delay as a duration string.
func (t Turn) MarshalJSON() ([]byte, error) {
	type plain Turn
	aux := struct {
		plain
		Delay string `json:"delay,omitempty"`
	}{plain: plain(t)}
	if t.Delay != 0 {
		aux.Delay = t.Delay.String()
	}
	return json.Marshal(aux)
}

func chunksJSON(raw json.RawMessage) ([]string, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil
	}
	var one string
	if json.Unmarshal(raw, &one) == nil {
		return Words(one), nil
	}
	var many []string
	if err := json.Unmarshal(raw, &many); err != nil {
		return nil, fmt.Errorf("want a string or an array of strings")
	}
	return many, nil
}

func delayJSON(raw json.RawMessage) (time.Duration, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return 0, nil
	}
	var text string
	if json.Unmarshal(raw, &text) == nil {
		return time.ParseDuration(text)
	}
	var ms float64
	if err := json.Unmarshal(raw, &ms); err != nil {
		return 0, fmt.Errorf("want a duration string or milliseconds")
	}
	return time.Duration(ms * float64(time.Millisecond)), nil
}

// Words splits s into word chunks that keep their spacing: each chunk is a word with
// the whitespace before it, and trailing whitespace stays on the last chunk, so
// strings.Join(Words(s), "") == s.
func Words(s string) []string {
	var chunks []string
	start := 0
	inSpace := true // whitespace before the first word joins it
	for i, r := range s {
		space := unicode.IsSpace(r)
		if space && !inSpace && i > start {
			// a word just ended; whitespace starts the next chunk, unless it is trailing
			if strings.TrimSpace(s[i:]) != "" {
				chunks = append(chunks, s[start:i])
				start = i
			}
		}
		inSpace = space
	}
	if start < len(s) {
		chunks = append(chunks, s[start:])
	}
	return chunks
}

// TextTurn replies text in word chunks with delay between them.
func TextTurn(text string, delay time.Duration) Turn {
	return Turn{Text: Words(text), Delay: delay}
}

// ToolTurn replies with tool calls only.
func ToolTurn(calls ...llm.ToolCall) Turn {
	return Turn{ToolCalls: calls}
}

// ErrorTurn answers with an HTTP error in the provider's error shape.
func ErrorTurn(status int, message string) Turn {
	return Turn{Status: status, ErrorMessage: message}
}

// Call builds a tool call with args marshalled to JSON; an empty id is filled in by
// the server.
func Call(id, name string, args any) llm.ToolCall {
	raw, err := json.Marshal(args)
	if err != nil {
		panic("llmtest: marshal tool arguments: " + err.Error())
	}
	return llm.ToolCall{ID: id, Name: name, Arguments: raw}
}

// Echo is a responder replying "You said: <last user text>" in word chunks with delay
// between them. It is the default fallback. A request whose system prompt asks for a
// title gets the first words of the conversation's first line instead, so trying an
// app against the fake does not name every conversation "You said: …"; one that goes
// on after a tool call gets "The tool said: <its result>". When the last user
// message shows images, the reply starts by describing them from their bytes:
// "I see 2 images: 64×48 image/png, 10×10 image/jpeg. You said: …".
func Echo(delay time.Duration) func(Received) Turn {
	return func(r Received) Turn {
		if result, ok := r.ToolResult(); ok {
			return TextTurn("The tool said: "+result, delay)
		}
		last, _ := r.lastUser()
		if len(r.Tools) == 0 && strings.Contains(strings.ToLower(r.System), "title") {
			return TextTurn(titleFrom(last.Text), delay)
		}
		reply := "You said: " + last.Text
		if saw := seen(last.Images); saw != "" {
			reply = saw + " " + reply
		}
		return TextTurn(reply, delay)
	}
}

// titleFrom is the first five words of text's first line, without a "Name:" prefix.
func titleFrom(text string) string {
	line, _, _ := strings.Cut(strings.TrimSpace(text), "\n")
	if head, rest, ok := strings.Cut(line, ": "); ok && !strings.Contains(head, " ") {
		line = rest
	}
	words := strings.Fields(line)
	if len(words) > 5 {
		words = words[:5]
	}
	return strings.Join(words, " ")
}

// stopReason is the turn's stop reason in Anthropic's words.
func (t Turn) stopReason() string {
	switch {
	case t.StopReason != "":
		return t.StopReason
	case len(t.ToolCalls) > 0:
		return "tool_use"
	}
	return "end_turn"
}

// httpError reports whether the turn answers with an HTTP error, and with which status.
func (t Turn) httpError() (int, string, bool) {
	status := t.Status
	if status == 0 && t.ErrorMessage != "" {
		status = 500
	}
	if status < 400 {
		return 0, "", false
	}
	msg := t.ErrorMessage
	if msg == "" {
		msg = httpStatusText(status)
	}
	return status, msg, true
}

// usage is the turn's scripted usage, or the fake's counts: the request's tokens in
// and the reply's tokens out.
func (t Turn) usage(r Received) llm.Usage {
	if t.Usage != (llm.Usage{}) {
		return t.Usage
	}
	c := tokens.For(r.Model)
	out := c.Count(strings.Join(t.Text, "")) + c.Count(strings.Join(t.Thinking, ""))
	for _, call := range t.ToolCalls {
		out += c.Count(call.Name) + c.Count(string(call.Arguments))
	}
	return llm.Usage{InputTokens: r.Tokens, OutputTokens: out, CacheReadTokens: t.CacheReadTokens, CacheWriteTokens: t.CacheWriteTokens}
}

// fragments splits tool arguments into pieces of about eight bytes, and at least two
// (when they have two characters), so clients must accumulate them. Pieces end on
// character boundaries.
func fragments(args string) []string {
	if args == "" {
		args = "{}"
	}
	size := max(1, min(8, len(args)/2))
	var out []string
	for len(args) > 0 {
		end := min(size, len(args))
		for end < len(args) && !utf8.RuneStart(args[end]) {
			end++
		}
		out = append(out, args[:end])
		args = args[end:]
	}
	return out
}
