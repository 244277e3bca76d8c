package api

import (
	"encoding/json"
	"net/http"
	"strings"
	"time"

	"github.com/wispapp/wisp/app/compat"
	"github.com/wispapp/wisp/runtime/llm"
)

// The OpenAI-compatible API: POST /v1/chat/completions answered by the agent with
// the caller's own conversation, streaming or not, like /v1/messages (nothing is
// stored). Errors, the token check's included, are in OpenAI's shape. The translation
// is app/compat's; these handlers do the I/O.

// openAIError is OpenAI's error shape.
func openAIError(status int, msg string, err error) any { return compat.OpenAIError(status, msg, err) }

// oaiHandle adapts an OpenAI-compatible handler: every error, the token check's
// included, is written in OpenAI's shape.
func (s *Server) oaiHandle(fn handlerFunc) http.Handler { return s.adaptWith(fn, false, openAIError) }

// oaiModels are the model names a completion may ask for: "wisp", the agent (what
// GET /v1/models lists) and the configured model, bare and with its provider.
func (s *Server) oaiModels() []string {
	models := []string{"wisp", s.chat.AgentName()}
	if s.status != nil {
		if st := s.status(); st.Model != "" {
			models = append(models, st.Model)
			if st.Provider != "" {
				models = append(models, st.Provider+"/"+st.Model)
			}
		}
	}
	return models
}

func (s *Server) chatCompletions(w http.ResponseWriter, r *http.Request) error {
	var req compat.OpenAIRequest
	if err := decodeJSON(w, r, &req); err != nil {
		return err
	}
	history, msg, maxTokens, err := req.Turn(s.oaiModels())
	if err != nil {
		return err
	}
	if ok, why := s.canRespond(); !ok {
		return Errorf(http.StatusServiceUnavailable, "%s", why)
	}
	c := compat.NewOpenAICompletion(s.chat.AgentName(), time.Now().Unix())
	if req.Stream {
		return s.oaiStream(w, r, c, history, msg, maxTokens, req.StreamOptions.IncludeUsage)
	}
	var out strings.Builder
	res, err := s.chat.Complete(r.Context(), history, msg, maxTokens, func(t string) { out.WriteString(t) })
	if err != nil {
		return err // an internal one says "internal error", and is logged
	}
	return writeJSON(w, http.StatusOK, c.Answer(out.String(), res.StopReason, compat.NewOpenAIUsage(res.Usage)))
}

func (s *Server) oaiStream(w http.ResponseWriter, r *http.Request, c compat.OpenAICompletion, history []llm.Message, msg llm.Message, maxTokens int, withUsage bool) error {
	sse, err := startSSE(w)
	if err != nil {
		return err
	}
	defer sse.stop()
	send := func(v any) {
		data, _ := json.Marshal(v)
		_ = sse.data(data)
	}
	send(c.Chunk(&compat.OpenAIChoice{Delta: &compat.OpenAIDelta{Role: "assistant"}}, nil))
	res, err := s.chat.Complete(r.Context(), history, msg, maxTokens, func(t string) {
		send(c.Chunk(&compat.OpenAIChoice{Delta: &compat.OpenAIDelta{Content: &t}}, nil))
	})
	if err != nil {
		if r.Context().Err() == nil {
			send(compat.OpenAIError(http.StatusInternalServerError, s.clientMessage(r, err), nil))
		}
		return nil
	}
	send(c.Chunk(&compat.OpenAIChoice{Delta: &compat.OpenAIDelta{}, FinishReason: compat.OpenAIFinish(res.StopReason)}, nil))
	if withUsage {
		send(c.Chunk(nil, compat.NewOpenAIUsage(res.Usage)))
	}
	return sse.data([]byte("[DONE]"))
}
