package api

import (
	"log/slog"
	"net/http"
	"regexp"
	"strings"

	"github.com/wispapp/wisp/app/wire"
	"github.com/wispapp/wisp/internal/fault"
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

// uiReport is something the page did that only the page knows: speech it played or
// could not play (docs/voice.md).
type uiReport struct {
	Event  string `json:"event"`
	Detail string `json:"detail"`
}

// The bounds of a UI report: an event name of lower-case words, a short detail.
var uiEventName = regexp.MustCompile(`^[a-z][a-z-]{0,63}$`)

const maxUIDetail = 300

// postUIReport logs a report of the page's, so Wisp's log says what a window did that
// the server cannot see (the desktop window has no console a user can open; the
// desktop smoke test reads it too). The page is not trusted with more than a line:
// the event is a plain name, the detail is cut short, and slog quotes both.
func (s *Server) postUIReport(w http.ResponseWriter, r *http.Request) error {
	var req uiReport
	if err := decodeJSON(w, r, &req); err != nil {
		return err
	}
	if !uiEventName.MatchString(req.Event) {
		return fault.Invalid.Errorf("event must be 1-64 lower-case letters and dashes")
	}
	detail := req.Detail
	if len(detail) > maxUIDetail {
		detail = strings.ToValidUTF8(detail[:maxUIDetail], "") + "…"
	}
	s.log.LogAttrs(r.Context(), slog.LevelInfo, "ui report", slog.String("event", req.Event),
		slog.String("detail", detail), slog.String("origin", r.Header.Get("Origin")))
	return writeJSON(w, http.StatusOK, wire.Okay)
}
