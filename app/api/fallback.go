package api

import (
	"net/http"
	"strings"
)

// What answers a request no route takes. The web UI is served only to GET and HEAD
// of paths outside /api/ and /v1/. Under /api/ and /v1/ the token is checked first
// (an answer without it must not tell a client "no token needed"), then a path that
// some route takes with another method is 405 with Allow, and any other is 404:
// JSON under /api/, Anthropic's error shape under /v1/. Elsewhere anything but GET
// and HEAD is a JSON 404.

// methods are those a route may take, in the order Allow lists them.
var methods = []string{http.MethodGet, http.MethodHead, http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete}

func (s *Server) fallbackRoutes(mux *http.ServeMux) {
	mux.Handle("/api/", s.handle(s.unrouted(mux, "/api/")))
	mux.Handle("/v1/", s.v1Handle(s.unrouted(mux, "/v1/")))
	mux.Handle("/", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet || r.Method == http.MethodHead {
			s.ui.ServeHTTP(w, r)
			return
		}
		writeJSON(w, http.StatusNotFound, map[string]string{"error": "no such endpoint"})
	}))
}

// unrouted answers a request under prefix that no route took.
func (s *Server) unrouted(mux *http.ServeMux, prefix string) handlerFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		if allow := allowed(mux, r, prefix); len(allow) > 0 {
			w.Header().Set("Allow", strings.Join(allow, ", "))
			return Errorf(http.StatusMethodNotAllowed, "method not allowed: %s takes %s", r.URL.Path, strings.Join(allow, ", "))
		}
		return Errorf(http.StatusNotFound, "no such endpoint: %s", r.URL.Path)
	}
}

// allowed lists the methods a route under prefix (not its catch-all) takes r's path with.
func allowed(mux *http.ServeMux, r *http.Request, prefix string) []string {
	var out []string
	for _, m := range methods {
		probe := r.Clone(r.Context())
		probe.Method = m
		if _, pattern := mux.Handler(probe); pattern != "" && pattern != prefix && pattern != "/" {
			out = append(out, m)
		}
	}
	return out
}
