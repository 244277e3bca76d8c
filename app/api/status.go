package api

import (
	"log/slog"
	"net/http"

	"github.com/wispapp/wisp/app/wire"
)

func (s *Server) health(w http.ResponseWriter, _ *http.Request) error {
	return writeJSON(w, http.StatusOK, wire.Okay)
}

func (s *Server) getStatus(w http.ResponseWriter, _ *http.Request) error {
	return writeJSON(w, http.StatusOK, s.status())
}

type uiReadyRequest struct {
	API bool `json:"api"`
	WS  bool `json:"ws"`
	// Painted: the browser produced a frame after the first render with data
	// (absent, and so false, from UIs older than the field).
	Painted bool `json:"painted"`
}

// postUIReady is the UI's report that it reached the API and the socket, and that it
// painted. It is logged so an operator (and the desktop smoke test, which waits for
// painted=true before its screenshot) can see the window came up working.
func (s *Server) postUIReady(w http.ResponseWriter, r *http.Request) error {
	var req uiReadyRequest
	if err := decodeJSON(w, r, &req); err != nil {
		return err
	}
	s.log.LogAttrs(r.Context(), slog.LevelInfo, "ui ready",
		slog.Bool("api", req.API), slog.Bool("ws", req.WS), slog.Bool("painted", req.Painted),
		slog.String("origin", r.Header.Get("Origin")), slog.String("userAgent", r.UserAgent()))
	return writeJSON(w, http.StatusOK, wire.Okay)
}
