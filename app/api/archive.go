package api

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"mime"
	"net/http"

	"github.com/wispapp/wisp/app/archive"
	"github.com/wispapp/wisp/app/wire"
)

// ImportMaxBytes caps the body of POST /api/import of a JSON file: a whole history
// fits, a runaway upload does not. ImportZipMaxBytes caps a zip (a history with its
// attachments: the attachments' own limits bound what is kept of it).
const (
	ImportMaxBytes    = 64 << 20
	ImportZipMaxBytes = 2 << 30
)

// Archive exports and imports conversations (docs/export.md).
type Archive interface {
	ExportConversation(ctx context.Context, id string, f archive.Format) (*archive.Export, error)
	ExportAll(ctx context.Context, f archive.Format) (*archive.Export, error)
	Import(ctx context.Context, data []byte, src archive.Source) (wire.ImportResult, error)
	// ImportZipFrom brings in a .zip export read from r, at most max bytes.
	ImportZipFrom(ctx context.Context, r io.Reader, max int64, src archive.Source) (wire.ImportResult, error)
}

// archiveRoutes are export and import (docs/export.md).
func (s *Server) archiveRoutes(mux *http.ServeMux) {
	mux.Handle("GET /api/conversations/{id}/export", s.handle(s.exportConversation))
	mux.Handle("GET /api/export", s.handle(s.exportAll))
	mux.Handle("POST /api/import", withBodyLimit(ImportZipMaxBytes, withRawBody(s.handle(s.importConversations))))
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
// apart by the file unless ?format= says (wisp, chatgpt), or a .zip export (told by
// its first bytes: PK).
func (s *Server) importConversations(w http.ResponseWriter, r *http.Request) error {
	src, err := archive.ParseSource(r.URL.Query().Get("format"))
	if err != nil {
		return err
	}
	body := bufio.NewReader(http.MaxBytesReader(w, r.Body, ImportZipMaxBytes))
	if head, _ := body.Peek(4); isZip(head) {
		res, err := s.archive.ImportZipFrom(r.Context(), body, ImportZipMaxBytes, src)
		var tooBig *http.MaxBytesError
		switch {
		case errors.As(err, &tooBig):
			return tooBig
		case errors.Is(err, archive.ErrBodyRead):
			return Errorf(http.StatusBadRequest, "could not read the file: %v", errors.Unwrap(err))
		case err != nil:
			return err
		}
		return writeJSON(w, http.StatusOK, res)
	}
	if r.ContentLength > ImportMaxBytes {
		return Errorf(http.StatusRequestEntityTooLarge, "request body is larger than %d bytes", ImportMaxBytes)
	}
	data, err := io.ReadAll(io.LimitReader(body, ImportMaxBytes+1))
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			return err
		}
		return Errorf(http.StatusBadRequest, "could not read the file: %v", err)
	}
	if len(data) > ImportMaxBytes {
		return &http.MaxBytesError{Limit: ImportMaxBytes}
	}
	res, err := s.archive.Import(r.Context(), data, src)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, res)
}

// isZip tells a zip by its first bytes: a local file header, or the end of an empty
// zip's directory.
func isZip(head []byte) bool {
	return bytes.HasPrefix(head, []byte("PK\x03\x04")) || bytes.HasPrefix(head, []byte("PK\x05\x06"))
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
