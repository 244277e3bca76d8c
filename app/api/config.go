package api

import (
	"context"
	"net/http"

	"github.com/wispapp/wisp/app/settings"
	"github.com/wispapp/wisp/app/wire"
)

// Settings reads and changes the config file.
type Settings interface {
	// Config is the file's settings as the API shows them.
	Config(ctx context.Context) settings.ConfigView
	// PatchConfig applies a JSON merge patch to the file, saves and applies it.
	PatchConfig(ctx context.Context, patch map[string]any) (settings.ConfigView, error)
	// SetShell turns shell access on or off in the file.
	SetShell(ctx context.Context, enabled bool) (settings.ShellView, error)
	// SetAutonomy writes autonomy.enabled to the file and applies it.
	SetAutonomy(ctx context.Context, enabled bool) error
}

// Restarter restarts Wisp's services.
type Restarter interface {
	// Restart applies the restart-only settings in-process.
	Restart(ctx context.Context) (RestartResult, error)
}

// RestartResult is the answer to POST /api/agent/restart. Connection tells a client
// where Wisp now listens (the port may have changed).
type RestartResult struct {
	OK         bool           `json:"ok"`
	Status     wire.Status    `json:"status"`
	Connection ConnectionInfo `json:"connection"`
}

// ConnectionInfo is where the API and /ws answer.
type ConnectionInfo struct {
	BaseURL string `json:"baseURL"`
	WSURL   string `json:"wsURL"`
}

func (s *Server) getConfig(w http.ResponseWriter, r *http.Request) error {
	return writeJSON(w, http.StatusOK, s.settings.Config(r.Context()))
}

func (s *Server) putConfig(w http.ResponseWriter, r *http.Request) error {
	var patch map[string]any
	if err := decodeJSON(w, r, &patch); err != nil {
		return err
	}
	if patch == nil {
		return Errorf(http.StatusBadRequest, "the body must be a JSON object of settings, e.g. {\"character\":{\"name\":\"Ada\"}}")
	}
	view, err := s.settings.PatchConfig(r.Context(), patch)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, view)
}

type shellRequest struct {
	Enabled *bool `json:"enabled"`
}

func (s *Server) putShell(w http.ResponseWriter, r *http.Request) error {
	var req shellRequest
	if err := decodeJSON(w, r, &req); err != nil {
		return err
	}
	if req.Enabled == nil {
		return Errorf(http.StatusBadRequest, "enabled (true or false) is required")
	}
	view, err := s.settings.SetShell(r.Context(), *req.Enabled)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, view)
}

// setAutonomy switches the autonomy loop in the settings and answers its state.
func (s *Server) setAutonomy(ctx context.Context, enabled bool) (wire.AutonomyState, error) {
	if s.settings == nil {
		return wire.AutonomyState{}, Errorf(http.StatusServiceUnavailable, "the settings cannot be changed here")
	}
	if err := s.settings.SetAutonomy(ctx, enabled); err != nil {
		return wire.AutonomyState{}, err
	}
	return s.proactive.Autonomy(ctx)
}

func (s *Server) postRestart(w http.ResponseWriter, r *http.Request) error {
	res, err := s.restarter.Restart(r.Context())
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, res)
}
