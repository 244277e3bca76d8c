package api

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"

	"github.com/wispapp/wisp/app/ws"
)

// eventStreams are the stream names a client may publish on.
var eventStreams = map[string]bool{
	"system": true, "autonomy": true, "assistant": true, "action": true, "terminal": true, "chat": true,
}

var eventKinds = map[string]string{
	"":          ws.KindAgent,
	"agent":     ws.KindAgent,
	"heartbeat": ws.KindHeartbeat,
	"training":  ws.KindTraining,
}

type agentEventRequest struct {
	Stream     string          `json:"stream"`
	Payload    json.RawMessage `json:"payload"`
	Kind       string          `json:"kind"`
	RunID      string          `json:"runId"`
	Seq        *int64          `json:"seq"`
	SessionKey string          `json:"sessionKey"`
	AgentID    string          `json:"agentId"`
	RoomID     string          `json:"roomId"`
}

// postAgentEvent publishes a buffered envelope on /ws.
func (s *Server) postAgentEvent(w http.ResponseWriter, r *http.Request) error {
	var req agentEventRequest
	if err := decodeJSON(w, r, &req); err != nil {
		return err
	}
	typ, ok := eventKinds[req.Kind]
	if !ok {
		return Errorf(http.StatusBadRequest, "kind must be agent, heartbeat or training")
	}
	if !eventStreams[req.Stream] {
		return Errorf(http.StatusBadRequest, "stream must be one of system, autonomy, assistant, action, terminal, chat")
	}
	if p := bytes.TrimSpace(req.Payload); len(p) == 0 || p[0] != '{' {
		return Errorf(http.StatusBadRequest, "payload must be a JSON object")
	}
	env, err := s.publish(r.Context(), ws.Envelope{
		Type: typ, Stream: req.Stream, Payload: req.Payload, RunID: req.RunID, Seq: req.Seq,
		SessionKey: req.SessionKey, AgentID: req.AgentID, RoomID: req.RoomID,
	})
	if errors.Is(err, ws.ErrClosed) {
		return Errorf(http.StatusServiceUnavailable, "cannot publish: %v", err)
	}
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, map[string]any{"ok": true, "eventId": env.EventID})
}

// publish sends an envelope through the proactive service, which also routes
// assistant text (seed 004), or straight to the hub when there is none.
func (s *Server) publish(ctx context.Context, env ws.Envelope) (ws.Envelope, error) {
	if s.proactive != nil {
		return s.proactive.PublishAgentEvent(ctx, env)
	}
	return s.hub.Publish(env)
}
