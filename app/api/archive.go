package api

import (
	"context"
	"errors"
	"io"
	"mime"
	"net/http"

	"github.com/wispapp/wisp/app/archive"
	"github.com/wispapp/wisp/app/wire"
)

// ImportMaxBytes caps the body of POST /api/import: a whole history fits, a runaway
// upload does not.
const ImportMaxBytes = 64 << 20

// Archive exports and imports conversations (docs/export.md).
type Archive interface {
	ExportConversation(ctx context.Context, id string, f archive.Format) (*archive.Export, error)
	ExportAll(ctx context.Context, f archive.Format) (*archive.Export, error)
	Import(ctx context.Context, data []byte, src archive.Source) (wire.ImportResult, error)
}

// archiveRoutes are export and import (docs/export.md).
func (s *Server) archiveRoutes(mux *http.ServeMux) {
	mux.Handle("GET /api/conversations/{id}/export", s.handle(s.exportConversation))
	mux.Handle("GET /api/export", s.handle(s.exportAll))
	mux.Handle("POST /api/import", withBodyLimit(ImportMaxBytes, s.handle(s.importConversations)))
}

func (s *Server) exportConversation(w http.ResponseWriter, r *http.Request) error {
	f, err := archive.ParseFormat(r.URL.Query().Get("format"))
	if err != nil {
		return err
	}
	ex, err := s.archive.ExportConversation(r.Context(), r.PathValue("id"), f)
	if err != nil {
		return err
	}
	return s.writeExport(w, r, ex)
}

func (s *Server) exportAll(w http.ResponseWriter, r *http.Request) error {
	f, err := archive.ParseFormat(r.URL.Query().Get("format"))
	if err != nil {
		return err
	}
	ex, err := s.archive.ExportAll(r.Context(), f)
	if err != nil {
		return err
	}
	return s.writeExport(w, r, ex)
}

// writeExport streams an export as a download. Once the headers are out a failure
// can no longer be a status: the connection is cut instead, so that a client never
// saves part of an export as if it were whole.
func (s *Server) writeExport(w http.ResponseWriter, r *http.Request, ex *archive.Export) error {
	h := w.Header()
	h.Set("Content-Type", ex.Format.ContentType())
	h.Set("Content-Disposition", mime.FormatMediaType("attachment", map[string]string{"filename": ex.Filename}))
	h.Set("Cache-Control", "no-store")
	h.Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(http.StatusOK)
	if err := ex.WriteTo(r.Context(), w); err != nil {
		if !errors.Is(err, context.Canceled) {
			s.log.Error("export cut short", "path", r.URL.Path, "err", err)
		}
		panic(http.ErrAbortHandler)
	}
	return nil
}

// importConversations brings in a Wisp export or ChatGPT's conversations.json, told
// apart by the file unless ?format= says (wisp, chatgpt).
func (s *Server) importConversations(w http.ResponseWriter, r *http.Request) error {
	src, err := archive.ParseSource(r.URL.Query().Get("format"))
	if err != nil {
		return err
	}
	data, err := io.ReadAll(http.MaxBytesReader(w, r.Body, ImportMaxBytes))
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			return err
		}
		return Errorf(http.StatusBadRequest, "could not read the file: %v", err)
	}
	res, err := s.archive.Import(r.Context(), data, src)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, res)
}

// bodyLimitKey carries a route's own cap on request bodies (withBodyLimit).
type bodyLimitKey struct{}

// withBodyLimit lets the requests of one route carry bodies of up to limit bytes
// instead of MaxBodyBytes.
func withBodyLimit(limit int64, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), bodyLimitKey{}, limit)))
	})
}

// bodyLimit is how big a request's body may be.
func bodyLimit(r *http.Request) int64 {
	if limit, ok := r.Context().Value(bodyLimitKey{}).(int64); ok {
		return limit
	}
	return MaxBodyBytes
}
