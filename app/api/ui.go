package api

import (
	"io/fs"
	"net/http"
	"path"
	"strings"
)

// uiHandler serves the built frontend: hashed assets cached for good, index.html never
// cached, and index.html for client-side routes.
type uiHandler struct {
	files fs.FS
	fs    http.Handler
}

func newUIHandler(files fs.FS) http.Handler {
	return &uiHandler{files: files, fs: http.FileServerFS(files)}
}

const uiCSP = "default-src 'self'; connect-src 'self'; img-src 'self' data: blob:; " +
	"style-src 'self' 'unsafe-inline'; font-src 'self' data:; object-src 'none'; frame-ancestors 'none'; base-uri 'none'"

func (u *uiHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if isAPIPath(r.URL.Path) {
		writeJSON(w, http.StatusNotFound, map[string]string{"error": "no such endpoint"})
		return
	}
	h := w.Header()
	h.Set("Referrer-Policy", "no-referrer")
	name := strings.TrimPrefix(path.Clean(r.URL.Path), "/")
	if name == "" || !u.exists(name) {
		if path.Ext(name) != "" {
			writeJSON(w, http.StatusNotFound, map[string]string{"error": "file not found"})
			return
		}
		u.serveIndex(w, r)
		return
	}
	if strings.HasPrefix(name, "assets/") {
		h.Set("Cache-Control", "public, max-age=31536000, immutable")
	}
	u.fs.ServeHTTP(w, r)
}

func (u *uiHandler) exists(name string) bool {
	st, err := fs.Stat(u.files, name)
	return err == nil && !st.IsDir()
}

func (u *uiHandler) serveIndex(w http.ResponseWriter, r *http.Request) {
	index, err := fs.ReadFile(u.files, "index.html")
	if err != nil {
		writeJSON(w, http.StatusServiceUnavailable, map[string]string{
			"error": "the web UI is not built into this binary: run `make build`"})
		return
	}
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Cache-Control", "no-cache")
	h.Set("Content-Security-Policy", uiCSP)
	h.Set("X-Frame-Options", "DENY")
	if r.Method != http.MethodHead {
		_, _ = w.Write(index)
	}
}
