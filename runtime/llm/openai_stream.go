package llm

import (
	"encoding/json"
	"fmt"
	"strings"
)

// chunkAccumulator assembles a Response from Chat Completions chunks and reports each
// piece as a Delta. Tool calls arrive in fragments keyed by index and are reported
// once complete, when the finish reason arrives.
type chunkAccumulator struct {
	emit     func(Delta)
	text     strings.Builder
	thinking strings.Builder
	calls    []*toolCallBuilder
	byIndex  map[int64]int // tool call index on the wire → position in calls
	done     []ToolCall    // the calls, complete, once the finish reason arrived
	finish   string
	usage    Usage
	flushed  bool
}

type toolCallBuilder struct {
	id, name string
	args     strings.Builder
}

func newChunkAccumulator(emit func(Delta)) *chunkAccumulator {
	return &chunkAccumulator{emit: emit, byIndex: map[int64]int{}}
}

func (a *chunkAccumulator) add(chunk *openAIChunk) {
	if chunk.Usage != nil {
		a.usage = chunk.Usage.usage()
	}
	for i := range chunk.Choices {
		choice := &chunk.Choices[i]
		if choice.Index != 0 {
			continue // only one choice is ever asked for
		}
		a.addDelta(choice)
		if choice.FinishReason != "" {
			a.finish = choice.FinishReason
			a.flushToolCalls()
		}
	}
}

func (a *chunkAccumulator) addDelta(c *openAIChoice) {
	if r := c.reasoning(); r != "" {
		a.thinking.WriteString(r)
		a.emit(Delta{Kind: DeltaThinking, Text: r})
	}
	for _, text := range []string{c.Delta.Content, c.Delta.Refusal} {
		if text != "" {
			a.text.WriteString(text)
			a.emit(Delta{Kind: DeltaText, Text: text})
		}
	}
	for i := range c.Delta.ToolCalls {
		a.addToolCall(&c.Delta.ToolCalls[i])
	}
}

// addToolCall appends one fragment. A fragment with a new id at an index already in
// use starts a new call: some servers number every call 0.
func (a *chunkAccumulator) addToolCall(tc *openAIToolFrag) {
	i, ok := a.byIndex[tc.Index]
	if !ok || (tc.ID != "" && a.calls[i].id != "" && tc.ID != a.calls[i].id) {
		a.calls = append(a.calls, &toolCallBuilder{})
		i = len(a.calls) - 1
		a.byIndex[tc.Index] = i
	}
	b := a.calls[i]
	if tc.ID != "" {
		b.id = tc.ID
	}
	if tc.Function.Name != "" {
		b.name = tc.Function.Name
	}
	b.args.WriteString(tc.Function.Arguments)
}

// flushToolCalls reports the accumulated tool calls, once.
func (a *chunkAccumulator) flushToolCalls() {
	if a.flushed {
		return
	}
	a.flushed = true
	for i, b := range a.calls {
		if b.id == "" {
			b.id = fmt.Sprintf("call_%d", i) // some local servers send no id
		}
		call := ToolCall{ID: b.id, Name: b.name, Arguments: toolArguments(b.args.String())}
		a.done = append(a.done, call)
		a.emit(Delta{Kind: DeltaToolCall, ToolCall: &call})
	}
}

func (a *chunkAccumulator) response() Response {
	r := Response{Text: a.text.String(), ToolCalls: a.done, Usage: a.usage}
	if a.thinking.Len() > 0 {
		r.Thinking = []Thinking{{Text: a.thinking.String()}}
	}
	r.StopReason = stopReason(a.finish, len(r.ToolCalls) > 0)
	return r
}

// stopReason normalises a finish reason to Anthropic's words. A server that says
// "stop" after calling tools (some local ones do) is taken to mean tool_use.
func stopReason(finish string, calledTools bool) string {
	switch finish {
	case "stop":
		if calledTools {
			return "tool_use"
		}
		return "end_turn"
	case "tool_calls", "function_call":
		return "tool_use"
	case "length":
		return "max_tokens"
	case "content_filter":
		return "refusal"
	}
	return finish
}

// toolArguments makes the arguments a model sent valid JSON: "{}" when it sent none,
// and a JSON string holding the text when it sent something unparsable, so the tool
// layer can tell the model its arguments were malformed.
func toolArguments(raw string) json.RawMessage {
	raw = strings.TrimSpace(raw)
	if raw == "" {
		return json.RawMessage("{}")
	}
	if json.Valid([]byte(raw)) {
		return json.RawMessage(raw)
	}
	quoted, _ := json.Marshal(raw)
	return quoted
}
