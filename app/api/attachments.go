package api

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/wispapp/wisp/app/wire"
	"github.com/wispapp/wisp/internal/fault"
	"github.com/wispapp/wisp/internal/regular"
)

// Attachments stores and serves the files users attach (docs/attachments.md).
type Attachments interface {
	// Upload stores body as an attachment named name; the bytes decide its type,
	// not declaredType.
	Upload(ctx context.Context, name, declaredType string, body io.Reader) (wire.Attachment, error)
	// Open is an attachment and its bytes, for the caller to close.
	Open(ctx context.Context, id string) (wire.Attachment, io.ReadSeekCloser, error)
	// Thumbnail is an image attachment's thumbnail and its MIME type.
	Thumbnail(ctx context.Context, id string) ([]byte, string, error)
	// UploadLimit is the largest file an upload may carry now (0: no limit).
	UploadLimit() int64
}

// attachmentRoutes are the upload and the reads of attachments.
func (s *Server) attachmentRoutes(mux *http.ServeMux) {
	mux.Handle("POST /api/attachments", withRawBody(s.handle(s.uploadAttachment)))
	mux.Handle("GET /api/attachments/{id}", sandboxed(s.handle(s.getAttachment)))
	mux.Handle("GET /api/attachments/{id}/thumbnail", sandboxed(s.handle(s.getThumbnail)))
}

// uploadAttachment stores the request's body, its bytes as they are
// (POST /api/attachments?name=<file name>), and answers 201 with the attachment. A
// body over the file limit is refused (413) as soon as it passes it.
func (s *Server) uploadAttachment(w http.ResponseWriter, r *http.Request) error {
	if limit := s.attachments.UploadLimit(); limit > 0 && r.ContentLength > limit {
		w.Header().Set("Connection", "close") // the rest of the body is not read
		return fault.TooLarge.Errorf("the file is larger than %s, the limit for one attachment", regular.Size(limit))
	}
	a, err := s.attachments.Upload(r.Context(), r.URL.Query().Get("name"), r.Header.Get("Content-Type"), r.Body)
	if err != nil {
		if fault.Is(err, fault.TooLarge) {
			w.Header().Set("Connection", "close")
		}
		return err
	}
	return writeJSON(w, http.StatusCreated, wire.AttachmentCreated{Attachment: a})
}

// getAttachment serves an attachment's bytes: an image Wisp decodes inline, anything
// else (SVG and HTML included) as a download; ranges and ETag (its SHA-256) work.
func (s *Server) getAttachment(w http.ResponseWriter, r *http.Request) error {
	a, body, err := s.attachments.Open(r.Context(), r.PathValue("id"))
	if err != nil {
		return err
	}
	defer body.Close()
	h := w.Header()
	h.Set("Content-Type", a.MIME)
	h.Set("Content-Disposition", disposition(a))
	h.Set("ETag", `"`+a.SHA256+`"`)
	h.Set("Cache-Control", "private, no-cache")
	http.ServeContent(w, r, "", time.Time{}, body)
	return nil
}

// getThumbnail serves an image attachment's thumbnail.
func (s *Server) getThumbnail(w http.ResponseWriter, r *http.Request) error {
	data, mt, err := s.attachments.Thumbnail(r.Context(), r.PathValue("id"))
	if err != nil {
		return err
	}
	h := w.Header()
	h.Set("Content-Type", mt)
	h.Set("Content-Disposition", "inline")
	h.Set("Cache-Control", "private, max-age=86400")
	http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(data))
	return nil
}

// inlineTypes are the types a browser may show in place: the images Wisp decodes.
var inlineTypes = map[string]bool{"image/png": true, "image/jpeg": true, "image/gif": true, "image/webp": true}

// disposition says how a browser takes an attachment: inline for a decoded image,
// else as a download under its cleaned name (RFC 5987's filename*).
func disposition(a wire.Attachment) string {
	kind := "attachment"
	if a.Kind == wire.AttachmentImage && inlineTypes[a.MIME] {
		kind = "inline"
	}
	return kind + "; filename*=UTF-8''" + encodeRFC5987(a.Name)
}

// encodeRFC5987 percent-encodes every byte but RFC 5987's attr-chars.
func encodeRFC5987(s string) string {
	const hex = "0123456789ABCDEF"
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.IndexByte("!#$&+-.^_`|~", c) >= 0 {
			b.WriteByte(c)
			continue
		}
		b.WriteByte('%')
		b.WriteByte(hex[c>>4])
		b.WriteByte(hex[c&15])
	}
	return b.String()
}

// sandboxed puts every answer of a route, its errors too, in a sandbox: a file
// opened at its URL runs no script and reaches no origin, whatever it is.
func sandboxed(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Security-Policy", "sandbox")
		next.ServeHTTP(w, r)
	})
}
