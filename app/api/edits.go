package api

import (
	"context"
	"net/http"

	"github.com/wispapp/wisp/app/wire"
)

// Edits are the agent's file edits as the chat shows them (docs/files.md): what a
// call changed, and its undo.
type Edits interface {
	// Edits are the edits a call made (none or one).
	Edits(ctx context.Context, callID string) ([]wire.FileEdit, error)
	// Undo restores the file as it was before the edit: fault.NotFound for no such
	// edit, fault.Conflict when the file changed since or it was undone already.
	Undo(ctx context.Context, id string) (wire.FileEdit, error)
}

func (s *Server) editRoutes(mux *http.ServeMux) {
	mux.Handle("GET /api/edits", s.handle(s.listEdits))
	mux.Handle("POST /api/edits/{id}/undo", s.handle(s.undoEdit))
}

func (s *Server) listEdits(w http.ResponseWriter, r *http.Request) error {
	edits, err := s.edits.Edits(r.Context(), r.URL.Query().Get("callId"))
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, wire.FileEditList{Edits: edits})
}

func (s *Server) undoEdit(w http.ResponseWriter, r *http.Request) error {
	e, err := s.edits.Undo(r.Context(), r.PathValue("id"))
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, wire.FileEditBody{Edit: e})
}
