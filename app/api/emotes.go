package api

import (
	"context"
	"errors"
	"net/http"
	"strings"

	"github.com/wispapp/wisp/emotes"

	"github.com/wispapp/wisp/app/avatar"
	"github.com/wispapp/wisp/app/wire"
)

// AvatarPath is where the built-in avatar model is served.
const AvatarPath = avatar.BuiltinURL

// Emotes is the emote catalog, the clips and the avatar, and plays emotes.
type Emotes interface {
	List(ctx context.Context) []emotes.Emote
	Get(ctx context.Context, id string) (emotes.Emote, bool)
	// Open opens an emote's clip; emotes.ErrNotFound when there is none.
	Open(ctx context.Context, id string) (*emotes.Asset, error)
	// Play shows an emote on every client's avatar (the /ws emote frame).
	Play(ctx context.Context, e emotes.Emote)
}

func (s *Server) emoteRoutes(mux *http.ServeMux) {
	mux.Handle("GET /api/emotes", s.handle(s.listEmotes))
	mux.Handle("POST /api/emote", s.handle(s.playEmote))
	// The models are public like the UI's own files: the page loads them before it
	// knows a token, and they hold nothing private. Host and Origin checks still apply.
	mux.Handle("GET /emotes/{file}", s.public(s.serveEmote))
	mux.Handle("GET /emotes/", s.public(noEmoteFile)) // deeper paths, and the bare folder
	mux.Handle("GET "+AvatarPath, s.public(s.serveAvatar))
}

// EmoteList answers GET /api/emotes: the avatar model (the user's VRM when there is one)
// and the emote catalog.
type EmoteList struct {
	Avatar string         `json:"avatar"`
	Emotes []emotes.Emote `json:"emotes"`
}

func (s *Server) listEmotes(w http.ResponseWriter, r *http.Request) error {
	return writeJSON(w, http.StatusOK, EmoteList{Avatar: s.avatarURL(r.Context()), Emotes: s.emotes.List(r.Context())})
}

func (s *Server) playEmote(w http.ResponseWriter, r *http.Request) error {
	var req struct {
		EmoteID *string `json:"emoteId"`
	}
	if err := decodeJSON(w, r, &req); err != nil {
		return err
	}
	if req.EmoteID == nil || *req.EmoteID == "" {
		return Errorf(http.StatusBadRequest, "emoteId is required")
	}
	e, ok := s.emotes.Get(r.Context(), *req.EmoteID)
	if !ok {
		return Errorf(http.StatusBadRequest, "Unknown emote: %s", *req.EmoteID)
	}
	s.emotes.Play(r.Context(), e)
	return writeJSON(w, http.StatusOK, wire.Okay)
}

func (s *Server) serveEmote(w http.ResponseWriter, r *http.Request) error {
	id, ok := strings.CutSuffix(r.PathValue("file"), ".glb")
	if !ok {
		return noEmoteFile(w, r)
	}
	a, err := s.emotes.Open(r.Context(), id)
	if err != nil {
		return assetError(err)
	}
	defer a.Close()
	serveGLB(w, r, a)
	return nil
}

func (s *Server) serveAvatar(w http.ResponseWriter, r *http.Request) error {
	a, err := emotes.OpenAvatar()
	if err != nil {
		return assetError(err)
	}
	defer a.Close()
	serveGLB(w, r, a)
	return nil
}

func noEmoteFile(http.ResponseWriter, *http.Request) error {
	return Errorf(http.StatusNotFound, "no such emote file")
}

func assetError(err error) error {
	if errors.Is(err, emotes.ErrNotFound) {
		return Errorf(http.StatusNotFound, "no such emote file")
	}
	return err
}

// serveGLB sends a model with validators, so a reload revalidates instead of downloading.
// Built-in files may be reused for an hour (they change only with Wisp); the user's
// files are revalidated every time, since they can change at any moment.
func serveGLB(w http.ResponseWriter, r *http.Request, a *emotes.Asset) {
	h := w.Header()
	h.Set("Content-Type", "model/gltf-binary")
	h.Set("ETag", a.ETag)
	if a.Builtin {
		h.Set("Cache-Control", "public, max-age=3600")
	} else {
		h.Set("Cache-Control", "no-cache")
	}
	http.ServeContent(w, r, a.Name, a.ModTime, a)
}
