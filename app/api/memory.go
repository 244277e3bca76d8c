package api

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"unicode/utf8"

	"github.com/wispapp/wisp/app/memory"
	"github.com/wispapp/wisp/app/wire"
)

// Memory is what the memory routes need (docs/memory.md).
type Memory interface {
	Get(ctx context.Context) (wire.Memory, error)
	// Put replaces the text; with base set, only if the memory is still at that version.
	Put(ctx context.Context, text string, base *int) (wire.Memory, error)
	History(ctx context.Context) (wire.MemoryHistory, error)
	Undo(ctx context.Context) (wire.Memory, error)
}

var _ Memory = (*memory.Service)(nil)

func (s *Server) memoryRoutes(mux *http.ServeMux) {
	mux.Handle("GET /api/memory", s.handle(s.getMemory))
	mux.Handle("PUT /api/memory", s.handle(s.putMemory))
	mux.Handle("GET /api/memory/history", s.handle(s.memoryHistory))
	mux.Handle("POST /api/memory/undo", s.handle(s.undoMemory))
}

func (s *Server) getMemory(w http.ResponseWriter, r *http.Request) error {
	m, err := s.memory.Get(r.Context())
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, m)
}

type memoryPut struct {
	Text        *string `json:"text"`
	BaseVersion *int    `json:"baseVersion"`
}

// putMemory replaces the memory's text: 409 when baseVersion is stale, 413 over the
// size limit, 400 for a body that is not valid UTF-8 JSON (Go's decoder would
// replace bad bytes silently: they are refused first).
func (s *Server) putMemory(w http.ResponseWriter, r *http.Request) error {
	in, err := decodeMemoryPut(w, r)
	if err != nil {
		return err
	}
	m, err := s.memory.Put(r.Context(), *in.Text, in.BaseVersion)
	if errors.Is(err, memory.ErrTooLarge) {
		_, msg, _ := statusOf(err)
		return Errorf(http.StatusRequestEntityTooLarge, "%s", msg)
	}
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, m)
}

func decodeMemoryPut(w http.ResponseWriter, r *http.Request) (memoryPut, error) {
	var in memoryPut
	if r.ContentLength == 0 && r.Body == http.NoBody {
		return in, Errorf(http.StatusBadRequest, "request body is required")
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, MaxBodyBytes))
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			return in, err
		}
		return in, Errorf(http.StatusBadRequest, "cannot read the body: %v", err)
	}
	if !utf8.Valid(body) {
		return in, Errorf(http.StatusBadRequest, "the body must be valid UTF-8")
	}
	if err := json.Unmarshal(body, &in); err != nil {
		return in, Errorf(http.StatusBadRequest, "invalid JSON body: %v", err)
	}
	if in.Text == nil {
		return in, Errorf(http.StatusBadRequest, "text is required: the whole memory")
	}
	return in, nil
}

func (s *Server) memoryHistory(w http.ResponseWriter, r *http.Request) error {
	h, err := s.memory.History(r.Context())
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, h)
}

func (s *Server) undoMemory(w http.ResponseWriter, r *http.Request) error {
	m, err := s.memory.Undo(r.Context())
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, m)
}
