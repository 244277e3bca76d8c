package llm

import (
	"strings"

	"github.com/anthropics/anthropic-sdk-go"
)

// eventAccumulator assembles a Response from Messages stream events and reports each
// piece as a Delta. A tool call is reported when its block stops, with its arguments
// complete.
type eventAccumulator struct {
	emit    func(Delta)
	blocks  map[int64]*blockBuilder
	resp    Response
	text    strings.Builder
	stopped bool // message_stop arrived
}

// blockBuilder is one content block being streamed.
type blockBuilder struct {
	kind      string // "text", "thinking", "redacted_thinking", "tool_use", ...
	text      strings.Builder
	signature string
	redacted  string
	id, name  string
	input     string // the input sent whole in content_block_start, if any
}

func newEventAccumulator(emit func(Delta)) *eventAccumulator {
	return &eventAccumulator{emit: emit, blocks: map[int64]*blockBuilder{}}
}

func (a *eventAccumulator) add(ev anthropic.MessageStreamEventUnion) {
	switch ev.Type {
	case "message_start":
		u := ev.Message.Usage
		a.setInput(u.InputTokens, u.CacheReadInputTokens, u.CacheCreationInputTokens)
		a.resp.Usage.OutputTokens = reported(u.OutputTokens)
	case "content_block_start":
		a.startBlock(ev.Index, ev.ContentBlock)
	case "content_block_delta":
		a.addDelta(ev.Index, ev.Delta)
	case "content_block_stop":
		a.stopBlock(ev.Index)
	case "message_delta":
		if ev.Delta.StopReason != "" {
			a.resp.StopReason = string(ev.Delta.StopReason)
		}
		if ev.Usage.JSON.OutputTokens.Valid() {
			a.resp.Usage.OutputTokens = reported(ev.Usage.OutputTokens)
		}
		if ev.Usage.InputTokens > 0 {
			a.setInput(ev.Usage.InputTokens, ev.Usage.CacheReadInputTokens, ev.Usage.CacheCreationInputTokens)
		}
	case "message_stop":
		a.stopped = true
	}
}

// setInput records the prompt's usage: Anthropic counts cache reads and writes
// apart from input_tokens, and Wisp's InputTokens is the whole prompt. A count that
// is negative or absurd is read as 0.
func (a *eventAccumulator) setInput(input, cacheRead, cacheWrite int64) {
	u := &a.resp.Usage
	u.CacheReadTokens = reported(cacheRead)
	u.CacheWriteTokens = reported(cacheWrite)
	u.InputTokens = reported(input) + u.CacheReadTokens + u.CacheWriteTokens
}

func (a *eventAccumulator) startBlock(index int64, cb anthropic.ContentBlockStartEventContentBlockUnion) {
	b := &blockBuilder{kind: cb.Type, id: cb.ID, name: cb.Name, signature: cb.Signature, redacted: cb.Data}
	a.blocks[index] = b
	switch cb.Type {
	case "text":
		a.addText(b, cb.Text)
	case "thinking":
		a.addThinking(b, cb.Thinking)
	case "tool_use":
		if raw := cb.JSON.Input.Raw(); raw != "" && raw != "{}" && raw != "null" {
			b.input = raw
		}
	}
}

func (a *eventAccumulator) addDelta(index int64, d anthropic.MessageStreamEventUnionDelta) {
	b := a.blocks[index]
	if b == nil {
		return
	}
	switch d.Type {
	case "text_delta":
		a.addText(b, d.Text)
	case "thinking_delta":
		a.addThinking(b, d.Thinking)
	case "signature_delta":
		b.signature += d.Signature
	case "input_json_delta":
		b.text.WriteString(d.PartialJSON)
	}
}

func (a *eventAccumulator) addText(b *blockBuilder, text string) {
	if text == "" {
		return
	}
	b.text.WriteString(text)
	a.text.WriteString(text)
	a.emit(Delta{Kind: DeltaText, Text: text})
}

func (a *eventAccumulator) addThinking(b *blockBuilder, text string) {
	if text == "" {
		return
	}
	b.text.WriteString(text)
	a.emit(Delta{Kind: DeltaThinking, Text: text})
}

// stopBlock keeps a finished thinking block (to be echoed back) and reports a
// finished tool call.
func (a *eventAccumulator) stopBlock(index int64) {
	b := a.blocks[index]
	if b == nil {
		return
	}
	delete(a.blocks, index)
	switch b.kind {
	case "thinking":
		a.resp.Thinking = append(a.resp.Thinking, Thinking{Text: b.text.String(), Signature: b.signature})
	case "redacted_thinking":
		a.resp.Thinking = append(a.resp.Thinking, Thinking{Redacted: b.redacted})
	case "tool_use":
		args := b.text.String()
		if args == "" {
			args = b.input
		}
		call := ToolCall{ID: b.id, Name: b.name, Arguments: toolArguments(args)}
		a.resp.ToolCalls = append(a.resp.ToolCalls, call)
		a.emit(Delta{Kind: DeltaToolCall, ToolCall: &call})
	}
}

func (a *eventAccumulator) response() Response {
	r := a.resp
	r.Text = a.text.String()
	return r
}
