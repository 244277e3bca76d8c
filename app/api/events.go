package api

import (
	"bytes"
	"encoding/json"
	"errors"
	"net/http"
	"slices"

	"github.com/wispapp/wisp/app/wire"
	"github.com/wispapp/wisp/app/ws"
	"github.com/wispapp/wisp/internal/fault"
)

var eventKinds = map[string]string{
	"":          wire.TypeAgentEvent,
	"agent":     wire.TypeAgentEvent,
	"heartbeat": wire.TypeHeartbeatEvent,
	"training":  wire.TypeTrainingEvent,
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
	if !slices.Contains(wire.Streams, req.Stream) {
		return Errorf(http.StatusBadRequest, "stream must be one of system, autonomy, assistant, action, terminal, chat")
	}
	if p := bytes.TrimSpace(req.Payload); len(p) == 0 || p[0] != '{' {
		return Errorf(http.StatusBadRequest, "payload must be a JSON object")
	}
	env := wire.NewEnvelope(typ, req.Stream, req.Payload)
	env.RunID, env.Seq, env.SessionKey, env.AgentID, env.RoomID = req.RunID, req.Seq, req.SessionKey, req.AgentID, req.RoomID
	env, err := s.hub.Publish(env)
	if errors.Is(err, ws.ErrClosed) {
		return fault.Unavailable.Errorf("cannot publish: %v", err)
	}
	if err != nil {
		return err
	}
	if s.proactive != nil {
		if err := s.proactive.RouteAgentEvent(r.Context(), env); err != nil {
			return err
		}
	}
	return writeJSON(w, http.StatusOK, wire.Published{OK: true, EventID: env.EventID})
}
