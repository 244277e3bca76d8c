package llmtest

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/wispapp/wisp/runtime/llm"
)

// anthropicRequest is the part of a Messages request the server reads.
type anthropicRequest struct {
	Model    string          `json:"model"`
	System   json.RawMessage `json:"system"` // a string or text blocks
	Messages []struct {
		Role    string          `json:"role"`
		Content json.RawMessage `json:"content"` // a string or blocks
	} `json:"messages"`
	Tools []struct {
		Name        string          `json:"name"`
		Description string          `json:"description"`
		InputSchema json.RawMessage `json:"input_schema"`
	} `json:"tools"`
	Stream      bool     `json:"stream"`
	MaxTokens   int      `json:"max_tokens"`
	Temperature *float64 `json:"temperature"`
	Thinking    *struct {
		Type         string `json:"type"`
		BudgetTokens int    `json:"budget_tokens"`
	} `json:"thinking"`
}

// anthropicBlock is any content block, request or response side.
type anthropicBlock struct {
	Type      string           `json:"type"`
	Text      string           `json:"text,omitempty"`
	Thinking  string           `json:"thinking,omitempty"`
	Signature string           `json:"signature,omitempty"`
	Data      string           `json:"data,omitempty"`
	ID        string           `json:"id,omitempty"`
	Name      string           `json:"name,omitempty"`
	Input     json.RawMessage  `json:"input,omitempty"`
	ToolUseID string           `json:"tool_use_id,omitempty"`
	Content   json.RawMessage  `json:"content,omitempty"` // tool_result: a string or blocks
	IsError   bool             `json:"is_error,omitempty"`
	Source    *anthropicSource `json:"source,omitempty"` // image
}

// anthropicSource is an image block's source.
type anthropicSource struct {
	Type      string `json:"type"`
	MediaType string `json:"media_type"`
	Data      string `json:"data"`
	URL       string `json:"url"`
}

// anthropicBlocks reads content that is a string or an array of blocks.
func anthropicBlocks(raw json.RawMessage) []anthropicBlock {
	var text string
	if json.Unmarshal(raw, &text) == nil {
		return []anthropicBlock{{Type: "text", Text: text}}
	}
	var blocks []anthropicBlock
	_ = json.Unmarshal(raw, &blocks)
	return blocks
}

func blocksText(blocks []anthropicBlock) string {
	var b strings.Builder
	for _, bl := range blocks {
		if bl.Type == "text" {
			b.WriteString(bl.Text)
		}
	}
	return b.String()
}

// received decodes the request back into llm types: a user message's tool_result
// blocks become RoleTool messages, its text and images a RoleUser message. A
// malformed image is a fault.
func (q anthropicRequest) received(h http.Header, body []byte) (Received, *imageFault) {
	r := Received{
		Protocol:    ProtocolAnthropic,
		Model:       q.Model,
		Stream:      q.Stream,
		MaxTokens:   q.MaxTokens,
		Temperature: q.Temperature,
		Header:      h.Clone(),
		Body:        body,
	}
	if len(q.System) > 0 {
		r.System = blocksText(anthropicBlocks(q.System))
	}
	if q.Thinking != nil && q.Thinking.Type == "enabled" {
		r.ThinkingBudget = q.Thinking.BudgetTokens
	}
	for _, t := range q.Tools {
		r.Tools = append(r.Tools, t.Name)
		r.toolDefs = append(r.toolDefs, llm.Tool{Name: t.Name, Description: t.Description, Parameters: t.InputSchema})
	}
	for i, m := range q.Messages {
		blocks := anthropicBlocks(m.Content)
		if m.Role == "assistant" {
			r.Messages = append(r.Messages, assistantMessage(blocks))
			continue
		}
		var images []llm.Image
		for j, b := range blocks {
			switch b.Type {
			case "tool_result":
				r.Messages = append(r.Messages, llm.Message{
					Role: llm.RoleTool, ToolCallID: b.ToolUseID, IsError: b.IsError,
					Text: blocksText(anthropicBlocks(b.Content)),
				})
			case "image":
				img, fault := decodeSource(b.Source, fmt.Sprintf("messages.%d.content.%d", i, j))
				if fault != nil {
					return Received{}, fault
				}
				images = append(images, img)
			}
		}
		if text := blocksText(blocks); text != "" || len(images) > 0 {
			r.Messages = append(r.Messages, llm.Message{Role: llm.RoleUser, Text: text, Images: images})
		}
	}
	r.noteImages()
	return r, nil
}

func assistantMessage(blocks []anthropicBlock) llm.Message {
	msg := llm.Message{Role: llm.RoleAssistant, Text: blocksText(blocks)}
	for _, b := range blocks {
		switch b.Type {
		case "thinking":
			msg.Thinking = append(msg.Thinking, llm.Thinking{Text: b.Thinking, Signature: b.Signature})
		case "redacted_thinking":
			msg.Thinking = append(msg.Thinking, llm.Thinking{Redacted: b.Data})
		case "tool_use":
			args := json.RawMessage("{}")
			if len(b.Input) > 0 {
				args = b.Input
			}
			msg.ToolCalls = append(msg.ToolCalls, llm.ToolCall{ID: b.ID, Name: b.Name, Arguments: args})
		}
	}
	return msg
}

// anthropicMessages serves POST /v1/messages.
func (s *Server) anthropicMessages(w http.ResponseWriter, r *http.Request) error {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		return err
	}
	var q anthropicRequest
	if err := json.Unmarshal(body, &q); err != nil {
		return writeAnthropicError(w, http.StatusBadRequest, "invalid JSON body: "+err.Error(), "")
	}
	rcv, fault := q.received(r.Header, body)
	if fault != nil {
		return writeAnthropicError(w, http.StatusBadRequest, fault.message, "invalid_request_error")
	}
	if rcv.ImageCount > 0 && !s.Vision() {
		return writeAnthropicError(w, http.StatusBadRequest, blindMessage, "invalid_request_error")
	}
	rcv = s.measure(rcv)
	if rcv.Over {
		msg := fmt.Sprintf("prompt is too long: %d tokens > %d maximum", rcv.Tokens, s.Window())
		return writeAnthropicError(w, http.StatusBadRequest, msg, "invalid_request_error")
	}
	t := s.withIDs(s.turnFor(rcv), "toolu_")
	if status, msg, ok := t.httpError(); ok {
		return writeAnthropicError(w, status, msg, t.ErrorType)
	}
	reply := anthropicReply{id: fmt.Sprintf("msg_llmtest_%d", s.nextID()), rcv: rcv, turn: t}
	if !q.Stream {
		return reply.respond(w, s.newEventWriter(w, r, t))
	}
	return reply.stream(s.newEventWriter(w, r, t))
}

// anthropicReply writes one turn in Messages shapes.
type anthropicReply struct {
	id   string
	rcv  Received
	turn Turn
}

// signature stands in for Anthropic's opaque thinking signature: stable for a text.
func signature(thinking string) string {
	sum := sha256.Sum256([]byte(thinking))
	return "sig_" + hex.EncodeToString(sum[:12])
}

// stream writes message_start, a ping, a thinking block (with its signature), a text
// block, a tool_use block per call, then message_delta and message_stop.
func (a anthropicReply) stream(e *eventWriter) error {
	e.start()
	if a.turn.Hang {
		return e.hang()
	}
	usage := a.turn.usage(a.rcv)
	start := map[string]any{"type": "message_start", "message": map[string]any{
		"id": a.id, "type": "message", "role": "assistant", "model": a.rcv.Model, "content": []any{},
		"stop_reason": nil, "stop_sequence": nil,
		"usage": anthropicUsage(usage, 1),
	}}
	if err := e.event("message_start", start); err != nil {
		return err
	}
	if err := e.event("ping", map[string]any{"type": "ping"}); err != nil {
		return err
	}
	index := 0
	if len(a.turn.Thinking) > 0 {
		if err := a.thinkingBlock(e, index); err != nil {
			return err
		}
		index++
	}
	if len(a.turn.Text) > 0 {
		if err := a.block(e, index, anthropicBlock{Type: "text"}, "text_delta", "text", a.turn.Text); err != nil {
			return err
		}
		index++
	}
	for _, c := range a.turn.ToolCalls {
		head := anthropicBlock{Type: "tool_use", ID: c.ID, Name: c.Name, Input: json.RawMessage("{}")}
		if err := a.block(e, index, head, "input_json_delta", "partial_json", fragments(string(c.Arguments))); err != nil {
			return err
		}
		index++
	}
	if a.turn.ErrorEvent != "" {
		typ := a.turn.ErrorType
		if typ == "" {
			typ = "overloaded_error"
		}
		return e.event("error", map[string]any{"type": "error", "error": map[string]any{"type": typ, "message": a.turn.ErrorEvent}})
	}
	delta := map[string]any{"type": "message_delta",
		"delta": map[string]any{"stop_reason": a.turn.stopReason(), "stop_sequence": nil},
		"usage": map[string]any{"output_tokens": usage.OutputTokens},
	}
	if err := e.event("message_delta", delta); err != nil {
		return err
	}
	return e.event("message_stop", map[string]any{"type": "message_stop"})
}

// thinkingBlock streams the thinking chunks, then the signature, as Anthropic does.
func (a anthropicReply) thinkingBlock(e *eventWriter, index int) error {
	head := map[string]any{"type": "thinking", "thinking": "", "signature": ""}
	if err := e.event("content_block_start", map[string]any{"type": "content_block_start", "index": index, "content_block": head}); err != nil {
		return err
	}
	for _, text := range a.turn.Thinking {
		if err := e.chunk("content_block_delta", blockDelta(index, map[string]any{"type": "thinking_delta", "thinking": text})); err != nil {
			return err
		}
	}
	sig := signature(strings.Join(a.turn.Thinking, ""))
	if err := e.event("content_block_delta", blockDelta(index, map[string]any{"type": "signature_delta", "signature": sig})); err != nil {
		return err
	}
	return e.event("content_block_stop", map[string]any{"type": "content_block_stop", "index": index})
}

// block streams one content block whose pieces go in deltas of deltaType under key.
func (a anthropicReply) block(e *eventWriter, index int, head anthropicBlock, deltaType, key string, pieces []string) error {
	headJSON := map[string]any{"type": head.Type}
	switch head.Type {
	case "text":
		headJSON["text"] = ""
	case "tool_use":
		headJSON["id"], headJSON["name"], headJSON["input"] = head.ID, head.Name, head.Input
	}
	if err := e.event("content_block_start", map[string]any{"type": "content_block_start", "index": index, "content_block": headJSON}); err != nil {
		return err
	}
	for _, p := range pieces {
		if err := e.chunk("content_block_delta", blockDelta(index, map[string]any{"type": deltaType, key: p})); err != nil {
			return err
		}
	}
	return e.event("content_block_stop", map[string]any{"type": "content_block_stop", "index": index})
}

func blockDelta(index int, delta map[string]any) map[string]any {
	return map[string]any{"type": "content_block_delta", "index": index, "delta": delta}
}

// respond answers a non-streamed request with a message object.
func (a anthropicReply) respond(w http.ResponseWriter, e *eventWriter) error {
	if a.turn.Hang {
		e.start()
		return e.hang()
	}
	if a.turn.CutAfter > 0 {
		w.WriteHeader(http.StatusOK)
		e.flush()
		return errCut
	}
	if a.turn.ErrorEvent != "" {
		return writeAnthropicError(w, 529, a.turn.ErrorEvent, a.turn.ErrorType)
	}
	content := []anthropicBlock{}
	if len(a.turn.Thinking) > 0 {
		thinking := strings.Join(a.turn.Thinking, "")
		content = append(content, anthropicBlock{Type: "thinking", Thinking: thinking, Signature: signature(thinking)})
	}
	if len(a.turn.Text) > 0 {
		content = append(content, anthropicBlock{Type: "text", Text: strings.Join(a.turn.Text, "")})
	}
	for _, c := range a.turn.ToolCalls {
		content = append(content, anthropicBlock{Type: "tool_use", ID: c.ID, Name: c.Name, Input: c.Arguments})
	}
	usage := a.turn.usage(a.rcv)
	return writeJSON(w, http.StatusOK, map[string]any{
		"id": a.id, "type": "message", "role": "assistant", "model": a.rcv.Model, "content": content,
		"stop_reason": a.turn.stopReason(), "stop_sequence": nil,
		"usage": anthropicUsage(usage, usage.OutputTokens),
	})
}

// anthropicUsage is usage in Anthropic's words: input_tokens leaves out what was read
// from or written to the cache, which have fields of their own.
func anthropicUsage(u llm.Usage, output int) map[string]any {
	return map[string]any{
		"input_tokens":                max(0, u.InputTokens-u.CacheReadTokens-u.CacheWriteTokens),
		"cache_read_input_tokens":     u.CacheReadTokens,
		"cache_creation_input_tokens": u.CacheWriteTokens,
		"output_tokens":               output,
	}
}

// writeAnthropicError answers with Anthropic's error shape.
func writeAnthropicError(w http.ResponseWriter, status int, message, typ string) error {
	if typ == "" {
		typ = errorType(ProtocolAnthropic, status)
	}
	return writeJSON(w, status, map[string]any{
		"type": "error", "error": map[string]any{"type": typ, "message": message}, "request_id": "req_llmtest",
	})
}
