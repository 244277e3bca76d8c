package api

import (
	"log/slog"
	"net/http"
)

func (s *Server) health(w http.ResponseWriter, _ *http.Request) error {
	return writeJSON(w, http.StatusOK, map[string]bool{"ok": true})
}

func (s *Server) getStatus(w http.ResponseWriter, _ *http.Request) error {
	return writeJSON(w, http.StatusOK, s.status())
}

type uiReadyRequest struct {
	API bool `json:"api"`
	WS  bool `json:"ws"`
}

// postUIReady is the UI's report that it reached the API and the socket. It is logged
// so an operator (and the desktop smoke test) can see the window came up working.
func (s *Server) postUIReady(w http.ResponseWriter, r *http.Request) error {
	var req uiReadyRequest
	if err := decodeJSON(w, r, &req); err != nil {
		return err
	}
	s.log.LogAttrs(r.Context(), slog.LevelInfo, "ui ready",
		slog.Bool("api", req.API), slog.Bool("ws", req.WS),
		slog.String("origin", r.Header.Get("Origin")), slog.String("userAgent", r.UserAgent()))
	return writeJSON(w, http.StatusOK, map[string]bool{"ok": true})
}
