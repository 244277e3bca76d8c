package api

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/wispapp/wisp/internal/fault"
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

// v1Handle adapts a /v1 handler: its errors are written in Anthropic's shape.
func (s *Server) v1Handle(fn handlerFunc) http.Handler {
	return s.handle(func(w http.ResponseWriter, r *http.Request) error {
		err := fn(w, r)
		var ve *v1Error
		if errors.As(err, &ve) {
			return writeJSON(w, ve.status, ve.body())
		}
		if status, msg, ok := statusOf(err); ok {
			kind := "invalid_request_error"
			switch status {
			case http.StatusServiceUnavailable:
				kind = "service_unavailable"
			case http.StatusUnauthorized:
				kind = "authentication_error"
			}
			return writeJSON(w, status, (&v1Error{kind: kind, msg: msg}).body())
		}
		return err
	})
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
	if req.Stream || strings.Contains(r.Header.Get("Accept"), "text/event-stream") {
		return s.v1Stream(w, r, history, text)
	}
	var out strings.Builder
	res, err := s.chat.Complete(r.Context(), history, text, func(t string) { out.WriteString(t) })
	if err != nil {
		if fault.KindOf(err) != fault.Internal {
			return err
		}
		return v1Errorf(http.StatusInternalServerError, "server_error", "%s", err.Error())
	}
	return writeJSON(w, http.StatusOK, newV1Message(s.chat.AgentName(), "end_turn", []v1Text{{Type: "text", Text: out.String()}},
		v1Usage{InputTokens: res.Usage.InputTokens, OutputTokens: res.Usage.OutputTokens}))
}

func (s *Server) v1Stream(w http.ResponseWriter, r *http.Request, history []llm.Message, text string) error {
	if ok, why := s.canRespond(); !ok {
		return v1Errorf(http.StatusServiceUnavailable, "service_unavailable", "%s", why)
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
	res, err := s.chat.Complete(r.Context(), history, text, func(t string) {
		send("content_block_delta", v1BlockDelta{Type: "content_block_delta", Delta: v1Text{Type: "text_delta", Text: t}})
	})
	if err != nil {
		if r.Context().Err() == nil {
			send("error", v1Errorf(0, "server_error", "%s", err.Error()).body())
		}
		return nil
	}
	send("content_block_stop", v1BlockStop{Type: "content_block_stop"})
	end := v1MessageDelta{Type: "message_delta"}
	end.Delta.StopReason, end.Usage.OutputTokens = "end_turn", res.Usage.OutputTokens
	send("message_delta", end)
	send("message_stop", v1MessageStop{Type: "message_stop"})
	return nil
}

func (s *Server) v1Models(w http.ResponseWriter, r *http.Request) error {
	name := s.chat.AgentName()
	return writeJSON(w, http.StatusOK, v1ModelList{
		Data:    []v1Model{{Type: "model", ID: name, DisplayName: name, CreatedAt: "2026-01-01T00:00:00Z"}},
		FirstID: name, LastID: name,
	})
}

func messageID() string {
	b := make([]byte, 12)
	_, _ = rand.Read(b)
	return "msg_" + hex.EncodeToString(b)
}

func sprintf(format string, args ...any) string { return fmt.Sprintf(format, args...) }
