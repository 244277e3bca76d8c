package api

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strings"

	"github.com/wispapp/wisp/app/chat"
)

// POST /api/chat speaks seed 003's dialect: {messages, stream?, session_id?}. The
// session is a conversation (made when none is named); its saved history is the
// context and the last message, a user's, is what is sent. With stream (the
// default) the answer is SSE with named events: init, presence (what the agent is
// doing), delta ({"v": text}), action (tool calls and results, approval requests a
// client answers through POST /api/approvals/{id}), context (the ids and usage at
// the end) and error. With stream: false, one JSON answer with the whole text and
// the actions taken; a run that waits for an approval answers then, saying so.

type chat003Request struct {
	Messages []struct {
		Role    string     `json:"role"`
		Content oaiContent `json:"content"`
	} `json:"messages"`
	Stream    *bool  `json:"stream"`
	SessionID string `json:"session_id"`
}

// event003 is one event of the dialect: its name and its data.
type event003 struct {
	name string
	data any
}

// envelope003 is the data of every event but delta.
type envelope003 struct {
	SessionID string `json:"session_id"`
	RequestID string `json:"request_id"`
	Type      string `json:"type"`
	Source    string `json:"source"`
	Data      any    `json:"data,omitempty"`
}

func (s *Server) chat003(w http.ResponseWriter, r *http.Request) error {
	var req chat003Request
	if err := decodeJSON(w, r, &req); err != nil {
		return err
	}
	n := len(req.Messages)
	if n == 0 || req.Messages[n-1].Role != "user" || strings.TrimSpace(string(req.Messages[n-1].Content)) == "" {
		return Errorf(http.StatusBadRequest, "messages must end with a non-empty user message")
	}
	session := req.SessionID
	if session == "" {
		conv, err := s.chat.CreateConversation(r.Context(), "", nil)
		if err != nil {
			return err
		}
		session = conv.ID
	} else if _, err := s.chat.Conversation(r.Context(), session); err != nil {
		return err
	}
	run, err := s.chat.Send(r.Context(), session, chat.SendInput{Text: string(req.Messages[n-1].Content)})
	if err != nil {
		return err
	}
	sub, err := s.chat.Subscribe(r.Context(), run.ID, 0, chat.Delta)
	if err != nil {
		return err
	}
	t := translator003{session: session, request: run.ID}
	if req.Stream != nil && !*req.Stream {
		return t.answer(w, r, sub)
	}
	return t.stream(w, r, sub)
}

type translator003 struct{ session, request string }

func (t translator003) envelope(typ, source string, data any) envelope003 {
	return envelope003{SessionID: t.session, RequestID: t.request, Type: typ, Source: source, Data: data}
}

// events are the seed-003 events of one chat frame (delta dialect).
func (t translator003) events(raw []byte) (out []event003, final bool) {
	var f map[string]any
	if json.Unmarshal(raw, &f) != nil {
		return nil, false
	}
	str := func(k string) string { v, _ := f[k].(string); return v }
	switch str("type") {
	case "token":
		if f["callback"] == true {
			return []event003{{"presence", t.envelope("presence", "executor", str("text"))}}, false
		}
		return []event003{{"delta", map[string]string{"v": str("text")}}}, false
	case "thinking":
		if f["complete"] == true {
			return nil, false
		}
		return []event003{{"presence", t.envelope("presence", "model", str("text"))}}, false
	case "tool_start":
		call, _ := json.Marshal(map[string]any{"callId": f["callId"], "name": f["name"], "arguments": f["arguments"]})
		return []event003{
			{"presence", t.envelope("presence", "model", "calling "+str("name"))},
			{"action", t.envelope("tool_call", "executor", string(call))},
		}, false
	case "tool_end":
		result, _ := json.Marshal(map[string]any{"callId": f["callId"], "name": f["name"], "result": f["result"], "error": f["error"]})
		return []event003{{"action", t.envelope("tool_result", "executor", string(result))}}, false
	case "run_paused":
		ask, _ := json.Marshal(map[string]any{"approvalId": f["approvalId"], "approval": f["approval"],
			"answer": "POST /api/approvals/" + str("approvalId")})
		return []event003{
			{"presence", t.envelope("presence", "executor", "waiting for the user's approval")},
			{"action", t.envelope("approval_request", "executor", string(ask))},
		}, false
	case "run_resumed":
		return []event003{{"presence", t.envelope("presence", "executor", "the user answered: "+str("decision"))}}, false
	case "done":
		ctx, _ := json.Marshal(map[string]any{"conversation_id": t.session, "run_id": t.request, "message_id": f["messageId"], "usage": f["usage"]})
		return []event003{{"context", t.envelope("context", "model", string(ctx))}}, true
	case "error":
		return []event003{{"error", t.envelope("error", "model", str("message"))}}, true
	}
	return nil, false
}

func (t translator003) stream(w http.ResponseWriter, r *http.Request, sub *chat.Subscription) error {
	sse, err := startSSE(w)
	if err != nil {
		return err
	}
	defer sse.stop()
	send := func(e event003) error {
		data, _ := json.Marshal(e.data)
		return sse.event(e.name, data)
	}
	if err := send(event003{"init", t.envelope("init", "model", nil)}); err != nil {
		return nil
	}
	for {
		f, err := sub.Next(sse.ctx(r))
		if errors.Is(err, context.DeadlineExceeded) && r.Context().Err() == nil {
			continue // time for a heartbeat
		}
		if err != nil {
			return nil // the end of the run, or the client went away (the run goes on)
		}
		events, final := t.events(f.Data)
		for _, e := range events {
			if send(e) != nil {
				return nil
			}
		}
		if final {
			return nil
		}
	}
}

// answer003 is the answer of stream: false.
type answer003 struct {
	SessionID string        `json:"session_id"`
	RequestID string        `json:"request_id"`
	Status    string        `json:"status"` // done, failed, waiting_for_approval
	Message   string        `json:"message"`
	Actions   []envelope003 `json:"actions"`
	Context   *envelope003  `json:"context,omitempty"`
	Error     string        `json:"error,omitempty"`
}

func (t translator003) answer(w http.ResponseWriter, r *http.Request, sub *chat.Subscription) error {
	out := answer003{SessionID: t.session, RequestID: t.request, Status: "done", Actions: []envelope003{}}
	var text strings.Builder
	for {
		f, err := sub.Next(r.Context())
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil // the client went away; the run goes on
		}
		events, final := t.events(f.Data)
		for _, e := range events {
			switch e.name {
			case "delta":
				text.WriteString(e.data.(map[string]string)["v"])
			case "action":
				a := e.data.(envelope003)
				out.Actions = append(out.Actions, a)
				if a.Type == "approval_request" {
					out.Status, final = "waiting_for_approval", true
				}
			case "context":
				c := e.data.(envelope003)
				out.Context = &c
			case "error":
				out.Status, out.Error = "failed", e.data.(envelope003).Data.(string)
			}
		}
		if final {
			break
		}
	}
	out.Message = text.String()
	return writeJSON(w, http.StatusOK, out)
}
