package api

import (
	"context"
	"io"
	"mime"
	"net/http"

	"github.com/wispapp/wisp/app/avatar"
	"github.com/wispapp/wisp/app/wire"
	"github.com/wispapp/wisp/internal/fault"
	"github.com/wispapp/wisp/internal/regular"
)

// Avatar is the user's own character, a VRM model (docs/emotes.md, "Your own character
// (VRM)"). Save and Remove tell every window (the /ws avatar-changed frame).
type Avatar interface {
	// Current is the character the stage shows: the built-in one or the user's.
	Current(ctx context.Context) wire.Avatar
	// Save validates body and stores it as the user's character, named name; a refused
	// model keeps the previous one (fault.Invalid, fault.TooLarge).
	Save(ctx context.Context, name string, body io.Reader) (wire.Avatar, error)
	// Remove goes back to the built-in character.
	Remove(ctx context.Context) (wire.Avatar, error)
	// Open is the stored model, for the caller to close; fault.NotFound without one.
	Open(ctx context.Context) (*avatar.File, error)
	// Limit is the largest model Save accepts, in bytes.
	Limit() int64
}

// vrmTypes are the Content-Types a VRM upload may declare (or none, with UploadHeader).
var vrmTypes = map[string]bool{"model/gltf-binary": true, "model/vrm": true, "application/octet-stream": true}

func (s *Server) avatarRoutes(mux *http.ServeMux) {
	mux.Handle("GET /api/avatar", s.handle(s.getAvatar))
	mux.Handle("POST /api/avatar", withRawBody(s.handle(s.uploadAvatar)))
	mux.Handle("DELETE /api/avatar", s.handle(s.deleteAvatar))
	// Public like the built-in avatar: the page loads it before it knows a token.
	mux.Handle("GET "+avatar.UserPath, s.public(s.serveUserAvatar))
}

func (s *Server) getAvatar(w http.ResponseWriter, r *http.Request) error {
	return writeJSON(w, http.StatusOK, s.avatar.Current(r.Context()))
}

// uploadAvatar stores the request's body, a .vrm file's bytes
// (POST /api/avatar?name=<file name>), and answers 201 with the new character. A body
// over the limit is refused (413) as soon as it passes it; a model that is not a VRM
// the page can load without fetching anything is refused (400), and the previous
// character stays.
func (s *Server) uploadAvatar(w http.ResponseWriter, r *http.Request) error {
	if ct := r.Header.Get("Content-Type"); ct != "" {
		if mt, _, err := mime.ParseMediaType(ct); err != nil || !vrmTypes[mt] {
			return Errorf(http.StatusUnsupportedMediaType, "a VRM upload is model/gltf-binary, model/vrm or application/octet-stream")
		}
	}
	if limit := s.avatar.Limit(); r.ContentLength > limit {
		w.Header().Set("Connection", "close") // the rest of the body is not read
		return fault.TooLarge.Errorf("the model is larger than %s, the limit for a VRM model", regular.Size(limit))
	}
	a, err := s.avatar.Save(r.Context(), r.URL.Query().Get("name"), r.Body)
	if err != nil {
		if fault.Is(err, fault.TooLarge) {
			w.Header().Set("Connection", "close")
		}
		return err
	}
	return writeJSON(w, http.StatusCreated, a)
}

func (s *Server) deleteAvatar(w http.ResponseWriter, r *http.Request) error {
	a, err := s.avatar.Remove(r.Context())
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, a)
}

// serveUserAvatar sends the user's model, revalidated on every use (it can change at
// any moment; its URL's ?v= changes with it).
func (s *Server) serveUserAvatar(w http.ResponseWriter, r *http.Request) error {
	f, err := s.avatar.Open(r.Context())
	if err != nil {
		return err
	}
	defer f.Close()
	h := w.Header()
	h.Set("Content-Type", "model/gltf-binary")
	h.Set("ETag", f.ETag)
	h.Set("Cache-Control", "no-cache")
	h.Set("X-Content-Type-Options", "nosniff")
	http.ServeContent(w, r, "", f.ModTime, f)
	return nil
}

// avatarURL is the model the stage loads: the user's when there is one.
func (s *Server) avatarURL(ctx context.Context) string {
	if s.avatar == nil {
		return AvatarPath
	}
	return s.avatar.Current(ctx).URL
}
