package api

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/wispapp/wisp/runtime/llm"
)

// The Anthropic-compatible API (seed 004): POST /v1/messages answered by the agent
// with the caller's own conversation, streaming or not, and GET /v1/models.

type v1Block struct {
	Type string `json:"type"`
	Text string `json:"text"`
}

// v1Content is a message's content: a string or a list of blocks.
type v1Content []v1Block

func (c *v1Content) UnmarshalJSON(b []byte) error {
	var s string
	if json.Unmarshal(b, &s) == nil {
		*c = v1Content{{Type: "text", Text: s}}
		return nil
	}
	var blocks []v1Block
	if err := json.Unmarshal(b, &blocks); err != nil {
		return errors.New("content must be a string or a list of content blocks")
	}
	*c = blocks
	return nil
}

func (c v1Content) text() (string, error) {
	var b strings.Builder
	for _, blk := range c {
		if blk.Type != "text" {
			return "", v1Errorf(http.StatusBadRequest, "invalid_request_error", "content blocks of type %q are not supported", blk.Type)
		}
		b.WriteString(blk.Text)
	}
	return b.String(), nil
}

type v1Request struct {
	Model     string `json:"model"`
	MaxTokens int    `json:"max_tokens"`
	Messages  []struct {
		Role    string    `json:"role"`
		Content v1Content `json:"content"`
	} `json:"messages"`
	Stream bool `json:"stream"`
}

// v1Error is an error in the Anthropic shape.
type v1Error struct {
	status int
	kind   string
	msg    string
}

func (e *v1Error) Error() string { return e.msg }

func v1Errorf(status int, kind, format string, args ...any) *v1Error {
	return &v1Error{status: status, kind: kind, msg: sprintf(format, args...)}
}

func (e *v1Error) body() v1ErrorBody {
	b := v1ErrorBody{Type: "error"}
	b.Error.Type, b.Error.Message = e.kind, e.msg
	return b
}

// v1Handle adapts a /v1 handler: every error, the token check's included, is written
// in Anthropic's shape.
func (s *Server) v1Handle(fn handlerFunc) http.Handler { return s.adaptWith(fn, false, s.writeV1Error) }

// v1Kinds are Anthropic's error types by status.
var v1Kinds = map[int]string{
	http.StatusBadRequest:            "invalid_request_error",
	http.StatusUnauthorized:          "authentication_error",
	http.StatusForbidden:             "permission_error",
	http.StatusNotFound:              "not_found_error",
	http.StatusMethodNotAllowed:      "invalid_request_error",
	http.StatusConflict:              "invalid_request_error",
	http.StatusRequestEntityTooLarge: "request_too_large",
	http.StatusUnsupportedMediaType:  "invalid_request_error",
	http.StatusTooManyRequests:       "rate_limit_error",
	http.StatusServiceUnavailable:    "api_error",
	http.StatusBadGateway:            "api_error",
}

func (s *Server) writeV1Error(w http.ResponseWriter, r *http.Request, err error) {
	if sw, ok := w.(*statusWriter); ok && sw.wrote {
		return // a stream already started: its error event said it
	}
	var ve *v1Error
	if !errors.As(err, &ve) {
		status, msg, ok := statusOf(err)
		if !ok {
			s.log.Error("request failed", "method", r.Method, "path", r.URL.Path, "err", err)
		}
		kind, known := v1Kinds[status]
		if !known {
			kind = "api_error"
		}
		ve = &v1Error{status: status, kind: kind, msg: msg}
	}
	_ = writeJSON(w, ve.status, ve.body())
}

// parse turns the request into the history and the new user text.
func (req *v1Request) parse() ([]llm.Message, string, error) {
	if len(req.Messages) == 0 {
		return nil, "", v1Errorf(http.StatusBadRequest, "invalid_request_error", "messages must not be empty")
	}
	history := make([]llm.Message, 0, len(req.Messages)-1)
	for i, m := range req.Messages {
		text, err := m.Content.text()
		if err != nil {
			return nil, "", err
		}
		var role llm.Role
		switch m.Role {
		case "user":
			role = llm.RoleUser
		case "assistant":
			role = llm.RoleAssistant
		default:
			return nil, "", v1Errorf(http.StatusBadRequest, "invalid_request_error", "messages.%d.role must be user or assistant", i)
		}
		if i == len(req.Messages)-1 {
			if role != llm.RoleUser || strings.TrimSpace(text) == "" {
				return nil, "", v1Errorf(http.StatusBadRequest, "invalid_request_error", "the last message must be a non-empty user message")
			}
			return history, text, nil
		}
		history = append(history, llm.Message{Role: role, Text: text})
	}
	return history, "", nil // unreachable
}

func (s *Server) v1Messages(w http.ResponseWriter, r *http.Request) error {
	var req v1Request
	if err := decodeJSON(w, r, &req); err != nil {
		var ae *Error
		if errors.As(err, &ae) {
			return v1Errorf(ae.Status, "invalid_request_error", "%s", ae.Msg)
		}
		return err
	}
	history, text, err := req.parse()
	if err != nil {
		return err
	}
	if req.MaxTokens < 1 {
		return v1Errorf(http.StatusBadRequest, "invalid_request_error", "max_tokens: a whole number of at least 1 is required")
	}
	if req.Stream || strings.Contains(r.Header.Get("Accept"), "text/event-stream") {
		return s.v1Stream(w, r, history, text, req.MaxTokens)
	}
	var out strings.Builder
	res, err := s.chat.Complete(r.Context(), history, text, req.MaxTokens, func(t string) { out.WriteString(t) })
	if err != nil {
		return err // an internal one says "internal error", and is logged
	}
	return writeJSON(w, http.StatusOK, newV1Message(s.chat.AgentName(), v1StopReason(res.StopReason), []v1Text{{Type: "text", Text: out.String()}},
		v1Usage{InputTokens: res.Usage.InputTokens, OutputTokens: res.Usage.OutputTokens}))
}

func (s *Server) v1Stream(w http.ResponseWriter, r *http.Request, history []llm.Message, text string, maxTokens int) error {
	if ok, why := s.canRespond(); !ok {
		return v1Errorf(http.StatusServiceUnavailable, "api_error", "%s", why)
	}
	sse, err := startSSE(w)
	if err != nil {
		return err
	}
	defer sse.stop()
	send := func(name string, v any) {
		data, _ := json.Marshal(v)
		_ = sse.event(name, data)
	}
	send("message_start", v1MessageStart{Type: "message_start", Message: newV1Message(s.chat.AgentName(), "", nil, v1Usage{})})
	send("content_block_start", v1BlockStart{Type: "content_block_start", ContentBlock: v1Text{Type: "text"}})
	res, err := s.chat.Complete(r.Context(), history, text, maxTokens, func(t string) {
		send("content_block_delta", v1BlockDelta{Type: "content_block_delta", Delta: v1Text{Type: "text_delta", Text: t}})
	})
	if err != nil {
		if r.Context().Err() == nil {
			send("error", v1Errorf(0, "api_error", "%s", s.clientMessage(r, err)).body())
		}
		return nil
	}
	send("content_block_stop", v1BlockStop{Type: "content_block_stop"})
	end := v1MessageDelta{Type: "message_delta"}
	end.Delta.StopReason, end.Usage.OutputTokens = v1StopReason(res.StopReason), res.Usage.OutputTokens
	send("message_delta", end)
	send("message_stop", v1MessageStop{Type: "message_stop"})
	return nil
}

func (s *Server) v1Models(w http.ResponseWriter, r *http.Request) error {
	name := s.chat.AgentName()
	return writeJSON(w, http.StatusOK, v1ModelList{Object: "list", Data: []v1Model{agentModel(name)}, FirstID: name, LastID: name})
}

// v1StopReason is why the reply stopped, in the words Anthropic's API uses: the
// model's own (end_turn, max_tokens, stop_sequence, refusal), or end_turn.
func v1StopReason(model string) string {
	switch model {
	case "max_tokens", "stop_sequence", "refusal":
		return model
	}
	return "end_turn"
}

// v1Model returns one model: the agent (GET /v1/models/{id}).
func (s *Server) v1Model(w http.ResponseWriter, r *http.Request) error {
	name := s.chat.AgentName()
	if r.PathValue("id") != name {
		return v1Errorf(http.StatusNotFound, "not_found_error", "model: %s is not a model here; GET /v1/models lists the one there is", r.PathValue("id"))
	}
	return writeJSON(w, http.StatusOK, agentModel(name))
}

func messageID() string {
	b := make([]byte, 12)
	_, _ = rand.Read(b)
	return "msg_" + hex.EncodeToString(b)
}

func sprintf(format string, args ...any) string { return fmt.Sprintf(format, args...) }
