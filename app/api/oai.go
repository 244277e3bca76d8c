package api

import (
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"time"

	"github.com/wispapp/wisp/runtime/llm"
)

// The OpenAI-compatible API: POST /v1/chat/completions answered by the agent with
// the caller's own conversation, streaming or not, like /v1/messages (nothing is
// stored). Errors, the token check's included, are in OpenAI's shape. A client's
// system (or developer) messages are not used: Wisp answers as its character.

// oaiMessage is one message of the request; content is a string or text parts.
type oaiMessage struct {
	Role    string     `json:"role"`
	Content oaiContent `json:"content"`
}

type oaiContent string

func (c *oaiContent) UnmarshalJSON(b []byte) error {
	var s string
	if json.Unmarshal(b, &s) == nil {
		*c = oaiContent(s)
		return nil
	}
	var parts []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	if err := json.Unmarshal(b, &parts); err != nil {
		return errors.New("content must be a string or a list of text parts")
	}
	var out strings.Builder
	for _, p := range parts {
		if p.Type != "text" {
			return oaiErrorf(http.StatusBadRequest, "invalid_request_error", "content parts of type %q are not supported", p.Type)
		}
		out.WriteString(p.Text)
	}
	*c = oaiContent(out.String())
	return nil
}

type oaiRequest struct {
	Model               string       `json:"model"`
	Messages            []oaiMessage `json:"messages"`
	Stream              bool         `json:"stream"`
	MaxTokens           int          `json:"max_tokens"`
	MaxCompletionTokens int          `json:"max_completion_tokens"`
	StreamOptions       struct {
		IncludeUsage bool `json:"include_usage"`
	} `json:"stream_options"`
}

// oaiError is an error in OpenAI's shape.
type oaiError struct {
	status     int
	kind, code string
	msg        string
}

func (e *oaiError) Error() string { return e.msg }

func oaiErrorf(status int, kind, format string, args ...any) *oaiError {
	return &oaiError{status: status, kind: kind, msg: sprintf(format, args...)}
}

type oaiErrorBody struct {
	Error struct {
		Message string  `json:"message"`
		Type    string  `json:"type"`
		Param   *string `json:"param"`
		Code    *string `json:"code"`
	} `json:"error"`
}

func (e *oaiError) body() oaiErrorBody {
	var b oaiErrorBody
	b.Error.Message, b.Error.Type = e.msg, e.kind
	if e.code != "" {
		b.Error.Code = &e.code
	}
	return b
}

// oaiHandle adapts an OpenAI-compatible handler: every error, the token check's
// included, is written in OpenAI's shape.
func (s *Server) oaiHandle(fn handlerFunc) http.Handler {
	return s.adaptWith(fn, false, s.writeOAIError)
}

func (s *Server) writeOAIError(w http.ResponseWriter, r *http.Request, err error) {
	if sw, ok := w.(*statusWriter); ok && sw.wrote {
		return
	}
	var oe *oaiError
	if !errors.As(err, &oe) {
		status, msg, ok := statusOf(err)
		if !ok {
			s.log.Error("request failed", "method", r.Method, "path", r.URL.Path, "err", err)
		}
		oe = &oaiError{status: status, kind: "invalid_request_error", msg: msg}
		switch {
		case status == http.StatusUnauthorized:
			oe.code = "invalid_api_key"
		case status >= 500:
			oe.kind = "server_error"
		}
	}
	_ = writeJSON(w, oe.status, oe.body())
}

// parse turns the request into the history and the new user text.
func (req *oaiRequest) parse() ([]llm.Message, string, error) {
	var history []llm.Message
	for i, m := range req.Messages {
		switch m.Role {
		case "system", "developer":
			continue
		case "user", "assistant":
		default:
			return nil, "", oaiErrorf(http.StatusBadRequest, "invalid_request_error", "messages[%d].role %q is not supported: use system, user or assistant", i, m.Role)
		}
		history = append(history, llm.Message{Role: llm.Role(m.Role), Text: string(m.Content)})
	}
	n := len(history)
	if n == 0 || history[n-1].Role != llm.RoleUser || strings.TrimSpace(history[n-1].Text) == "" {
		return nil, "", oaiErrorf(http.StatusBadRequest, "invalid_request_error", "messages must end with a non-empty user message")
	}
	return history[:n-1], history[n-1].Text, nil
}

func (s *Server) chatCompletions(w http.ResponseWriter, r *http.Request) error {
	var req oaiRequest
	if err := decodeJSON(w, r, &req); err != nil {
		var oe *oaiError
		if errors.As(err, &oe) {
			return oe
		}
		var ae *Error
		if errors.As(err, &ae) {
			return oaiErrorf(ae.Status, "invalid_request_error", "%s", ae.Msg)
		}
		return err
	}
	history, text, err := req.parse()
	if err != nil {
		return err
	}
	maxTokens := max(req.MaxTokens, req.MaxCompletionTokens)
	if maxTokens < 0 {
		return oaiErrorf(http.StatusBadRequest, "invalid_request_error", "max_tokens must not be negative")
	}
	if ok, why := s.canRespond(); !ok {
		return oaiErrorf(http.StatusServiceUnavailable, "server_error", "%s", why)
	}
	c := oaiCompletion{ID: "chatcmpl-" + strings.TrimPrefix(messageID(), "msg_"), Created: time.Now().Unix(), Model: s.chat.AgentName()}
	if req.Stream {
		return s.oaiStream(w, r, c, history, text, maxTokens, req.StreamOptions.IncludeUsage)
	}
	var out strings.Builder
	res, err := s.chat.Complete(r.Context(), history, text, maxTokens, func(t string) { out.WriteString(t) })
	if err != nil {
		return err // an internal one says "internal error", and is logged
	}
	c.Object = "chat.completion"
	reply := out.String()
	c.Choices = []oaiChoice{{Message: &oaiDelta{Role: "assistant", Content: &reply}, FinishReason: oaiFinish(res.StopReason)}}
	c.Usage = &oaiUsage{PromptTokens: res.Usage.InputTokens, CompletionTokens: res.Usage.OutputTokens,
		TotalTokens: res.Usage.InputTokens + res.Usage.OutputTokens}
	return writeJSON(w, http.StatusOK, c)
}

func (s *Server) oaiStream(w http.ResponseWriter, r *http.Request, c oaiCompletion, history []llm.Message, text string, maxTokens int, withUsage bool) error {
	sse, err := startSSE(w)
	if err != nil {
		return err
	}
	defer sse.stop()
	c.Object = "chat.completion.chunk"
	send := func(choice *oaiChoice, usage *oaiUsage) {
		chunk := c
		chunk.Choices, chunk.Usage = []oaiChoice{}, usage
		if choice != nil {
			chunk.Choices = []oaiChoice{*choice}
		}
		data, _ := json.Marshal(chunk)
		_ = sse.data(data)
	}
	send(&oaiChoice{Delta: &oaiDelta{Role: "assistant"}}, nil)
	res, err := s.chat.Complete(r.Context(), history, text, maxTokens, func(t string) {
		send(&oaiChoice{Delta: &oaiDelta{Content: &t}}, nil)
	})
	if err != nil {
		if r.Context().Err() == nil {
			data, _ := json.Marshal(oaiErrorf(0, "server_error", "%s", s.clientMessage(r, err)).body())
			_ = sse.data(data)
		}
		return nil
	}
	send(&oaiChoice{Delta: &oaiDelta{}, FinishReason: oaiFinish(res.StopReason)}, nil)
	if withUsage {
		send(nil, &oaiUsage{PromptTokens: res.Usage.InputTokens, CompletionTokens: res.Usage.OutputTokens,
			TotalTokens: res.Usage.InputTokens + res.Usage.OutputTokens})
	}
	return sse.data([]byte("[DONE]"))
}

// oaiFinish is why the reply stopped, in OpenAI's words.
func oaiFinish(stop string) *string {
	reason := "stop"
	if stop == "max_tokens" {
		reason = "length"
	}
	return &reason
}

type oaiCompletion struct {
	ID      string      `json:"id"`
	Object  string      `json:"object"`
	Created int64       `json:"created"`
	Model   string      `json:"model"`
	Choices []oaiChoice `json:"choices"`
	Usage   *oaiUsage   `json:"usage,omitempty"`
}

type oaiChoice struct {
	Index        int       `json:"index"`
	Message      *oaiDelta `json:"message,omitempty"`
	Delta        *oaiDelta `json:"delta,omitempty"`
	FinishReason *string   `json:"finish_reason"`
}

type oaiDelta struct {
	Role    string  `json:"role,omitempty"`
	Content *string `json:"content,omitempty"`
}

type oaiUsage struct {
	PromptTokens     int `json:"prompt_tokens"`
	CompletionTokens int `json:"completion_tokens"`
	TotalTokens      int `json:"total_tokens"`
}
