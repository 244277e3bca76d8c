package api

import (
	"context"
	"net/http"

	"github.com/wispapp/wisp/app/wire"
)

// Context is the context meter and the summaries of a conversation (docs/context.md).
type Context interface {
	ContextInfo(ctx context.Context, convID string) (wire.ContextInfo, error)
	// RegenerateSummary makes a summary again in a run of its own.
	RegenerateSummary(ctx context.Context, convID, id string) (string, wire.Summary, error)
	// UndoSummary takes a summary out of the model's context.
	UndoSummary(ctx context.Context, convID, id string) (wire.Summary, error)
}

// routeContext adds the context routes.
func (s *Server) routeContext(mux *http.ServeMux) {
	mux.Handle("GET /api/conversations/{id}/context", s.handle(s.getContext))
	mux.Handle("POST /api/conversations/{id}/summaries/{sid}/regenerate", s.handle(s.regenerateSummary))
	mux.Handle("DELETE /api/conversations/{id}/summaries/{sid}", s.handle(s.undoSummary))
}

// getContext answers the context meter of a conversation's branch shown.
func (s *Server) getContext(w http.ResponseWriter, r *http.Request) error {
	info, err := s.context.ContextInfo(r.Context(), r.PathValue("id"))
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, info)
}

// regenerateSummary starts a run making a summary again: 202 with the run and the
// new summary, its stream read at GET /api/runs/{runId}/stream.
func (s *Server) regenerateSummary(w http.ResponseWriter, r *http.Request) error {
	runID, sum, err := s.context.RegenerateSummary(r.Context(), r.PathValue("id"), r.PathValue("sid"))
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusAccepted, wire.SummaryRun{RunID: runID, Summary: sum})
}

// undoSummary takes a summary out of the model's context.
func (s *Server) undoSummary(w http.ResponseWriter, r *http.Request) error {
	sum, err := s.context.UndoSummary(r.Context(), r.PathValue("id"), r.PathValue("sid"))
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, wire.SummaryBody{Summary: sum})
}
