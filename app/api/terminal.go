package api

import (
	"errors"
	"net/http"
	"strings"
	"unicode/utf8"

	"github.com/wispapp/wisp/app/wire"
	"github.com/wispapp/wisp/terminal"
)

// MaxCommandLength is the longest command line accepted, in characters.
const MaxCommandLength = 4096

type terminalRunRequest struct {
	Command       string `json:"command"`
	ClientID      string `json:"clientId"`
	CaptureOutput bool   `json:"captureOutput"`
	Cols          *int   `json:"cols"`
	Rows          *int   `json:"rows"`
}

// terminalSpec validates a run request.
func terminalSpec(r *http.Request, req terminalRunRequest) (terminal.Spec, error) {
	cmd := strings.TrimSpace(req.Command)
	switch {
	case cmd == "":
		return terminal.Spec{}, Errorf(http.StatusBadRequest, "command must not be empty")
	case utf8.RuneCountInString(cmd) > MaxCommandLength:
		return terminal.Spec{}, Errorf(http.StatusBadRequest, "command is longer than %d characters", MaxCommandLength)
	case strings.ContainsAny(cmd, "\n\r\x00"):
		return terminal.Spec{}, Errorf(http.StatusBadRequest, "command must be one line: newlines, carriage returns and NUL are not allowed")
	}
	client := r.Header.Get("X-Client-Id")
	if client == "" {
		client = req.ClientID
	}
	if client == "" {
		return terminal.Spec{}, Errorf(http.StatusBadRequest, "clientId is required (X-Client-Id header or clientId in the body)")
	}
	if !wire.ValidClientID(client) {
		return terminal.Spec{}, Errorf(http.StatusBadRequest, "clientId must match %s", wire.ClientIDPattern)
	}
	spec := terminal.Spec{Command: cmd, Owner: client, Capture: req.CaptureOutput, Cols: 80, Rows: 24}
	if req.Cols != nil {
		spec.Cols = *req.Cols
	}
	if req.Rows != nil {
		spec.Rows = *req.Rows
	}
	if spec.Cols < 1 || spec.Cols > 500 || spec.Rows < 1 || spec.Rows > 500 {
		return terminal.Spec{}, Errorf(http.StatusBadRequest, "cols and rows must be 1-500")
	}
	return spec, nil
}

// runTerminal starts a run. Without captureOutput it answers at once; with it, when
// the run has ended. A caller that leaves does not end the run.
func (s *Server) runTerminal(w http.ResponseWriter, r *http.Request) error {
	if err := s.term.Gate.Check(r.Header.Get("X-Terminal-Token")); err != nil {
		return err
	}
	var req terminalRunRequest
	if err := decodeJSON(w, r, &req); err != nil {
		return err
	}
	spec, err := terminalSpec(r, req)
	if err != nil {
		return err
	}
	run, err := s.term.Manager.Start(spec)
	switch {
	case errors.Is(err, terminal.ErrBusy):
		w.Header().Set("Retry-After", "1")
		return Errorf(http.StatusTooManyRequests, "%s: wait for one to end or kill it", err)
	case errors.Is(err, terminal.ErrStopped):
		return Errorf(http.StatusServiceUnavailable, "Wisp is shutting down")
	case err != nil:
		return Errorf(http.StatusBadRequest, "%s", err)
	}
	if !spec.Capture {
		return writeJSON(w, http.StatusOK, wire.TerminalStarted{OK: true, RunID: run.ID()})
	}
	res, err := run.Wait(r.Context())
	if err != nil {
		return nil // the caller left; the run goes on
	}
	return writeJSON(w, http.StatusOK, res)
}

// TerminalRuns answers GET /api/terminal/runs: whether shell access is on, its limits
// and the recent runs.
type TerminalRuns struct {
	Enabled       bool            `json:"enabled"`
	TokenRequired bool            `json:"tokenRequired"`
	MaxConcurrent int             `json:"maxConcurrent"`
	MaxDurationMs int64           `json:"maxDurationMs"`
	ConfigPath    string          `json:"configPath"`
	Runs          []terminal.Info `json:"runs"`
}

func (s *Server) listTerminalRuns(w http.ResponseWriter, r *http.Request) error {
	m := s.term.Manager
	return writeJSON(w, http.StatusOK, TerminalRuns{
		Enabled: s.term.Gate.Enabled(), TokenRequired: s.term.Gate.TokenRequired(),
		MaxConcurrent: m.MaxConcurrent(), MaxDurationMs: m.MaxDuration().Milliseconds(),
		ConfigPath: s.term.ConfigPath, Runs: m.List(),
	})
}

func (s *Server) terminalRun(r *http.Request) (*terminal.Run, error) {
	run, err := s.term.Manager.Get(r.PathValue("id"))
	if err != nil {
		return nil, Errorf(http.StatusNotFound, "no such terminal run")
	}
	return run, nil
}

func (s *Server) getTerminalRun(w http.ResponseWriter, r *http.Request) error {
	run, err := s.terminalRun(r)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, run.Snapshot())
}

func (s *Server) killTerminalRun(w http.ResponseWriter, r *http.Request) error {
	run, err := s.terminalRun(r)
	if err != nil {
		return err
	}
	if err := run.Kill(); err != nil {
		return Errorf(http.StatusConflict, "%s", err)
	}
	return writeJSON(w, http.StatusOK, wire.Okay)
}
