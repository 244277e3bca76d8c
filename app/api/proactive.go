package api

import (
	"context"
	"net/http"

	"github.com/wispapp/wisp/app/proactive"
	"github.com/wispapp/wisp/app/wire"
	"github.com/wispapp/wisp/internal/jsonlist"
)

// Proactive is what the reminder and autonomy routes need.
type Proactive interface {
	AddReminder(ctx context.Context, in proactive.ReminderInput) (wire.Reminder, error)
	Reminders(ctx context.Context) ([]wire.Reminder, error)
	DeleteReminder(ctx context.Context, id string) error
	Autonomy(ctx context.Context) (wire.AutonomyState, error)
	// RouteAgentEvent delivers the text of an assistant-stream agent_event (seed 004).
	RouteAgentEvent(ctx context.Context, env wire.Envelope) error
}

func (s *Server) listReminders(w http.ResponseWriter, r *http.Request) error {
	list, err := s.proactive.Reminders(r.Context())
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, wire.ReminderList{Reminders: jsonlist.NonNil(list)})
}

func (s *Server) createReminder(w http.ResponseWriter, r *http.Request) error {
	var in proactive.ReminderInput
	if err := decodeJSON(w, r, &in); err != nil {
		return err
	}
	rem, err := s.proactive.AddReminder(r.Context(), in)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusCreated, rem)
}

func (s *Server) deleteReminder(w http.ResponseWriter, r *http.Request) error {
	if err := s.proactive.DeleteReminder(r.Context(), r.PathValue("id")); err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, wire.Okay)
}

func (s *Server) getAutonomy(w http.ResponseWriter, r *http.Request) error {
	st, err := s.proactive.Autonomy(r.Context())
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, st)
}

type autonomyRequest struct {
	Enabled *bool `json:"enabled"`
}

func (s *Server) postAutonomy(w http.ResponseWriter, r *http.Request) error {
	var req autonomyRequest
	if err := decodeJSON(w, r, &req); err != nil {
		return err
	}
	if req.Enabled == nil {
		return Errorf(http.StatusBadRequest, "enabled (true or false) is required")
	}
	st, err := s.setAutonomy(r.Context(), *req.Enabled)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, st)
}
