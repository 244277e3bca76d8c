package llmtest

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/wispapp/wisp/runtime/llm"
)

// openAIRequest is the part of a Chat Completions request the server reads.
type openAIRequest struct {
	Model    string `json:"model"`
	Messages []struct {
		Role             string          `json:"role"`
		Content          json.RawMessage `json:"content"`
		ReasoningContent string          `json:"reasoning_content"`
		ToolCallID       string          `json:"tool_call_id"`
		ToolCalls        []struct {
			ID       string `json:"id"`
			Function struct {
				Name      string `json:"name"`
				Arguments string `json:"arguments"`
			} `json:"function"`
		} `json:"tool_calls"`
	} `json:"messages"`
	Tools []struct {
		Function struct {
			Name        string          `json:"name"`
			Description string          `json:"description"`
			Parameters  json.RawMessage `json:"parameters"`
		} `json:"function"`
	} `json:"tools"`
	Stream        bool `json:"stream"`
	StreamOptions *struct {
		IncludeUsage bool `json:"include_usage"`
	} `json:"stream_options"`
	Temperature         *float64 `json:"temperature"`
	MaxTokens           int      `json:"max_tokens"`
	MaxCompletionTokens int      `json:"max_completion_tokens"`
}

// received decodes the request back into llm types; a malformed image is a fault.
func (q openAIRequest) received(h http.Header, body []byte) (Received, *imageFault) {
	r := Received{
		Protocol:    ProtocolOpenAI,
		Model:       q.Model,
		Stream:      q.Stream,
		MaxTokens:   max(q.MaxTokens, q.MaxCompletionTokens),
		Temperature: q.Temperature,
		Header:      h.Clone(),
		Body:        body,
	}
	var system []string
	for i, m := range q.Messages {
		text, images, fault := openAIContent(m.Content, fmt.Sprintf("messages[%d].content", i))
		if fault != nil {
			return Received{}, fault
		}
		switch m.Role {
		case "system", "developer":
			system = append(system, text)
		case "assistant":
			msg := llm.Message{Role: llm.RoleAssistant, Text: text}
			if m.ReasoningContent != "" {
				msg.Thinking = []llm.Thinking{{Text: m.ReasoningContent}}
			}
			for _, c := range m.ToolCalls {
				msg.ToolCalls = append(msg.ToolCalls, llm.ToolCall{ID: c.ID, Name: c.Function.Name, Arguments: rawArguments(c.Function.Arguments)})
			}
			r.Messages = append(r.Messages, msg)
		case "tool":
			r.Messages = append(r.Messages, llm.Message{Role: llm.RoleTool, Text: text, ToolCallID: m.ToolCallID})
		default:
			r.Messages = append(r.Messages, llm.Message{Role: llm.RoleUser, Text: text, Images: images})
		}
	}
	r.System = strings.Join(system, "\n")
	for _, t := range q.Tools {
		r.Tools = append(r.Tools, t.Function.Name)
		r.toolDefs = append(r.toolDefs, llm.Tool{Name: t.Function.Name, Description: t.Function.Description, Parameters: t.Function.Parameters})
	}
	r.noteImages()
	return r, nil
}

// openAIContent reads message content: a string or an array of parts, text and
// image_url (a data URL); at is the content's JSON path, for errors.
func openAIContent(raw json.RawMessage, at string) (string, []llm.Image, *imageFault) {
	var text string
	if json.Unmarshal(raw, &text) == nil {
		return text, nil, nil
	}
	var parts []struct {
		Type     string `json:"type"`
		Text     string `json:"text"`
		ImageURL *struct {
			URL string `json:"url"`
		} `json:"image_url"`
	}
	_ = json.Unmarshal(raw, &parts)
	var b strings.Builder
	var images []llm.Image
	for i, p := range parts {
		b.WriteString(p.Text)
		if p.Type != "image_url" {
			continue
		}
		url := ""
		if p.ImageURL != nil {
			url = p.ImageURL.URL
		}
		img, fault := decodeDataURL(url, fmt.Sprintf("%s[%d].image_url.url", at, i))
		if fault != nil {
			return "", nil, fault
		}
		images = append(images, img)
	}
	return b.String(), images, nil
}

// openAIChat serves POST /v1/chat/completions.
func (s *Server) openAIChat(w http.ResponseWriter, r *http.Request) error {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		return err
	}
	var q openAIRequest
	if err := json.Unmarshal(body, &q); err != nil {
		return writeOpenAIError(w, http.StatusBadRequest, "invalid JSON body: "+err.Error(), "")
	}
	rcv, fault := q.received(r.Header, body)
	if fault != nil {
		return writeJSON(w, http.StatusBadRequest, map[string]any{
			"error": map[string]any{"message": fault.message, "type": "invalid_request_error", "param": fault.param, "code": fault.code},
		})
	}
	if rcv.ImageCount > 0 && !s.Vision() {
		return writeOpenAIError(w, http.StatusBadRequest, blindMessage, "")
	}
	rcv = s.measure(rcv)
	if rcv.Over {
		return writeOpenAIContextError(w, rcv.Tokens, s.Window())
	}
	t := s.withIDs(s.turnFor(rcv), "call_")
	if status, msg, ok := t.httpError(); ok {
		return writeOpenAIError(w, status, msg, t.ErrorType)
	}
	reply := openAIReply{id: fmt.Sprintf("chatcmpl-llmtest-%d", s.nextID()), created: created, rcv: rcv, turn: t}
	if !q.Stream {
		return reply.respond(w, s.newEventWriter(w, r, t))
	}
	includeUsage := q.StreamOptions != nil && q.StreamOptions.IncludeUsage
	return reply.stream(s.newEventWriter(w, r, t), includeUsage)
}

// created is the fixed creation time of every completion, so replies are reproducible.
const created = 1735689600 // 2025-01-01T00:00:00Z

// openAIReply writes one turn in Chat Completions shapes.
type openAIReply struct {
	id      string
	created int64
	rcv     Received
	turn    Turn
}

type openAIToolCall struct {
	Index    *int   `json:"index,omitempty"`
	ID       string `json:"id,omitempty"`
	Type     string `json:"type,omitempty"`
	Function struct {
		Name      string `json:"name,omitempty"`
		Arguments string `json:"arguments"`
	} `json:"function"`
}

type openAIDelta struct {
	Role             string           `json:"role,omitempty"`
	Content          *string          `json:"content,omitempty"`
	ReasoningContent *string          `json:"reasoning_content,omitempty"`
	ToolCalls        []openAIToolCall `json:"tool_calls,omitempty"`
}

type openAIUsage struct {
	PromptTokens        int                  `json:"prompt_tokens"`
	CompletionTokens    int                  `json:"completion_tokens"`
	TotalTokens         int                  `json:"total_tokens"`
	PromptTokensDetails *openAIPromptDetails `json:"prompt_tokens_details,omitempty"`
}

// openAIPromptDetails says how much of the prompt came from the cache (OpenAI's
// cached_tokens) and was written to it (OpenRouter's cache_write_tokens).
type openAIPromptDetails struct {
	CachedTokens     int `json:"cached_tokens"`
	CacheWriteTokens int `json:"cache_write_tokens,omitempty"`
}

func (o openAIReply) chunk(delta openAIDelta, finish string) map[string]any {
	var finishReason any
	if finish != "" {
		finishReason = finish
	}
	return map[string]any{
		"id": o.id, "object": "chat.completion.chunk", "created": o.created, "model": o.rcv.Model,
		"choices": []any{map[string]any{"index": 0, "delta": delta, "finish_reason": finishReason, "logprobs": nil}},
	}
}

func (o openAIReply) usage() openAIUsage {
	u := o.turn.usage(o.rcv)
	out := openAIUsage{PromptTokens: u.InputTokens, CompletionTokens: u.OutputTokens, TotalTokens: u.InputTokens + u.OutputTokens}
	if u.CacheReadTokens != 0 || u.CacheWriteTokens != 0 {
		out.PromptTokensDetails = &openAIPromptDetails{CachedTokens: u.CacheReadTokens, CacheWriteTokens: u.CacheWriteTokens}
	}
	return out
}

// stream writes the SSE chunks: role, reasoning, content, tool call fragments, then the
// finish reason, the usage chunk (when asked for) and [DONE].
func (o openAIReply) stream(e *eventWriter, includeUsage bool) error {
	e.start()
	if o.turn.Hang {
		return e.hang()
	}
	if err := e.event("", o.chunk(openAIDelta{Role: "assistant", Content: ptr("")}, "")); err != nil {
		return err
	}
	for _, text := range o.turn.Thinking {
		if err := e.chunk("", o.chunk(openAIDelta{ReasoningContent: ptr(text)}, "")); err != nil {
			return err
		}
	}
	for _, text := range o.turn.Text {
		if err := e.chunk("", o.chunk(openAIDelta{Content: ptr(text)}, "")); err != nil {
			return err
		}
	}
	for i, c := range o.turn.ToolCalls {
		head := openAIToolCall{Index: ptr(i), ID: c.ID, Type: "function"}
		head.Function.Name = c.Name
		if err := e.event("", o.chunk(openAIDelta{ToolCalls: []openAIToolCall{head}}, "")); err != nil {
			return err
		}
		for _, frag := range fragments(string(c.Arguments)) {
			part := openAIToolCall{Index: ptr(i)}
			part.Function.Arguments = frag
			if err := e.chunk("", o.chunk(openAIDelta{ToolCalls: []openAIToolCall{part}}, "")); err != nil {
				return err
			}
		}
	}
	if o.turn.ErrorEvent != "" {
		typ := o.turn.ErrorType
		if typ == "" {
			typ = "server_error"
		}
		return e.event("", map[string]any{"error": map[string]any{"message": o.turn.ErrorEvent, "type": typ, "code": nil}})
	}
	if err := e.event("", o.chunk(openAIDelta{}, openAIFinish(o.turn.stopReason()))); err != nil {
		return err
	}
	if includeUsage {
		usage := map[string]any{"id": o.id, "object": "chat.completion.chunk", "created": o.created, "model": o.rcv.Model, "choices": []any{}, "usage": o.usage()}
		if err := e.event("", usage); err != nil {
			return err
		}
	}
	return e.raw("", []byte("[DONE]"))
}

// writeJSON answers a non-streamed request with a chat.completion object.
func (o openAIReply) respond(w http.ResponseWriter, e *eventWriter) error {
	if o.turn.Hang {
		e.start()
		return e.hang()
	}
	if o.turn.CutAfter > 0 {
		w.WriteHeader(http.StatusOK)
		e.flush()
		return errCut
	}
	if o.turn.ErrorEvent != "" {
		return writeOpenAIError(w, http.StatusInternalServerError, o.turn.ErrorEvent, o.turn.ErrorType)
	}
	msg := map[string]any{"role": "assistant", "content": nil}
	if text := strings.Join(o.turn.Text, ""); text != "" || len(o.turn.ToolCalls) == 0 {
		msg["content"] = text
	}
	if len(o.turn.Thinking) > 0 {
		msg["reasoning_content"] = strings.Join(o.turn.Thinking, "")
	}
	var calls []openAIToolCall
	for _, c := range o.turn.ToolCalls {
		call := openAIToolCall{ID: c.ID, Type: "function"}
		call.Function.Name = c.Name
		call.Function.Arguments = string(c.Arguments)
		calls = append(calls, call)
	}
	if len(calls) > 0 {
		msg["tool_calls"] = calls
	}
	return writeJSON(w, http.StatusOK, map[string]any{
		"id": o.id, "object": "chat.completion", "created": o.created, "model": o.rcv.Model,
		"choices": []any{map[string]any{"index": 0, "message": msg, "finish_reason": openAIFinish(o.turn.stopReason()), "logprobs": nil}},
		"usage":   o.usage(),
	})
}

// openAIFinish says an Anthropic stop reason in OpenAI's words.
func openAIFinish(stop string) string {
	switch stop {
	case "end_turn", "stop_sequence":
		return "stop"
	case "tool_use":
		return "tool_calls"
	case "max_tokens":
		return "length"
	case "refusal":
		return "content_filter"
	}
	return stop
}

// writeOpenAIError answers with OpenAI's error shape.
func writeOpenAIError(w http.ResponseWriter, status int, message, typ string) error {
	if typ == "" {
		typ = errorType(ProtocolOpenAI, status)
	}
	return writeJSON(w, status, map[string]any{
		"error": map[string]any{"message": message, "type": typ, "param": nil, "code": nil},
	})
}

// writeOpenAIContextError answers a prompt over the window as OpenAI does.
func writeOpenAIContextError(w http.ResponseWriter, tokens, window int) error {
	msg := fmt.Sprintf("This model's maximum context length is %d tokens. However, your messages resulted in %d tokens. Please reduce the length of the messages.", window, tokens)
	return writeJSON(w, http.StatusBadRequest, map[string]any{
		"error": map[string]any{"message": msg, "type": "invalid_request_error", "param": "messages", "code": "context_length_exceeded"},
	})
}

func ptr[T any](v T) *T { return &v }
