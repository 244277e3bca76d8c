package api

import (
	"encoding/json"
	"net/http"
	"strings"

	"github.com/wispapp/wisp/app/compat"
	"github.com/wispapp/wisp/runtime/llm"
)

// The Anthropic-compatible API (seed 004): POST /v1/messages answered by the agent
// with the caller's own conversation, streaming or not, and GET /v1/models. The
// translation is app/compat's; these handlers do the I/O.

// V1MaxBodyBytes caps the bodies of POST /v1/messages and /v1/chat/completions:
// their images come inside them as base64 (at most 50 MiB decoded, app/compat), so
// these two routes take more than MaxBodyBytes.
const V1MaxBodyBytes = compat.MaxRequestBytes

// anthropicError is Anthropic's error shape.
func anthropicError(status int, msg string, err error) any {
	return compat.AnthropicError(status, msg, err)
}

// v1Handle adapts a /v1 handler: every error, the token check's included, is written
// in Anthropic's shape.
func (s *Server) v1Handle(fn handlerFunc) http.Handler { return s.adaptWith(fn, false, anthropicError) }

func (s *Server) v1Messages(w http.ResponseWriter, r *http.Request) error {
	var req compat.AnthropicRequest
	if err := decodeJSON(w, r, &req); err != nil {
		return err
	}
	history, msg, err := req.Turn()
	if err != nil {
		return err
	}
	if req.Stream || strings.Contains(r.Header.Get("Accept"), "text/event-stream") {
		return s.v1Stream(w, r, history, msg, req.MaxTokens)
	}
	var out strings.Builder
	res, err := s.chat.Complete(r.Context(), history, msg, req.MaxTokens, func(t string) { out.WriteString(t) })
	if err != nil {
		return err // an internal one says "internal error", and is logged
	}
	return writeJSON(w, http.StatusOK, compat.NewAnthropicMessage(s.chat.AgentName(), compat.AnthropicStopReason(res.StopReason),
		out.String(), compat.NewAnthropicUsage(res.Usage)))
}

func (s *Server) v1Stream(w http.ResponseWriter, r *http.Request, history []llm.Message, msg llm.Message, maxTokens int) error {
	if ok, why := s.canRespond(); !ok {
		return Errorf(http.StatusServiceUnavailable, "%s", why)
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
	send("message_start", compat.AnthropicStart(s.chat.AgentName()))
	send("content_block_start", compat.AnthropicTextStart())
	res, err := s.chat.Complete(r.Context(), history, msg, maxTokens, func(t string) {
		send("content_block_delta", compat.AnthropicTextDelta(t))
	})
	if err != nil {
		if r.Context().Err() == nil {
			send("error", compat.AnthropicError(http.StatusInternalServerError, s.clientMessage(r, err), nil))
		}
		return nil
	}
	send("content_block_stop", compat.AnthropicTextStop())
	send("message_delta", compat.AnthropicEnd(res.StopReason, res.Usage))
	send("message_stop", compat.AnthropicStop())
	return nil
}

func (s *Server) v1Models(w http.ResponseWriter, r *http.Request) error {
	return writeJSON(w, http.StatusOK, compat.AgentModels(s.chat.AgentName()))
}

// v1Model returns one model: the agent (GET /v1/models/{id}).
func (s *Server) v1Model(w http.ResponseWriter, r *http.Request) error {
	name := s.chat.AgentName()
	if r.PathValue("id") != name {
		return compat.AnthropicModelNotFound(r.PathValue("id"))
	}
	return writeJSON(w, http.StatusOK, compat.AgentModel(name))
}
