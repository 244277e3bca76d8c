package api

import (
	"net"
	"net/http"
	"strconv"
	"strings"
)

// Guard decides which hosts, origins and tokens the local API accepts.
type Guard struct {
	hosts   map[string]bool
	origins map[string]bool
	tokens  tokens
}

// GuardOptions describe what the guard accepts beyond loopback.
type GuardOptions struct {
	Port         int      // the port actually listened on
	BindHost     string   // the address listened on; a non-loopback one is accepted as a Host
	ExtraHosts   []string // server.allowedHosts
	ExtraOrigins []string // server.allowedOrigins
	Tokens       []string // accepted API tokens; none means no token is required
	// Webview accepts the desktop window's origins (wails://wails,
	// http://wails.localhost): only where Wisp has that window. Under `wisp serve`
	// no Wails webview exists, and a page claiming to be one is foreign.
	Webview bool
}

// NewGuard builds a guard. The app's own origins are always accepted: the served UI on
// every loopback name, and with Webview the Wails window's.
func NewGuard(o GuardOptions) *Guard {
	g := &Guard{hosts: map[string]bool{}, origins: map[string]bool{}}
	port := strconv.Itoa(o.Port)
	for _, h := range []string{"localhost", "127.0.0.1", "::1"} {
		g.hosts[h] = true
		g.origins["http://"+net.JoinHostPort(h, port)] = true
	}
	if o.Webview {
		g.origins["wails://wails"] = true
		g.origins["http://wails.localhost"] = true
	}
	if b := normalizeHost(o.BindHost); b != "" && !isWildcard(b) {
		g.hosts[b] = true
		g.origins["http://"+net.JoinHostPort(b, port)] = true
	}
	for _, h := range o.ExtraHosts {
		if h = normalizeHost(h); h != "" {
			g.hosts[h] = true
		}
	}
	for _, origin := range o.ExtraOrigins {
		g.origins[strings.TrimSuffix(strings.ToLower(origin), "/")] = true
	}
	g.tokens = newTokens(o.Tokens...)
	return g
}

func isWildcard(h string) bool { return h == "0.0.0.0" || h == "::" }

// IsLoopback reports whether a listen host only reaches this machine.
func IsLoopback(host string) bool {
	h := normalizeHost(host)
	if h == "localhost" {
		return true
	}
	ip := net.ParseIP(h)
	return ip != nil && ip.IsLoopback()
}

// normalizeHost lower-cases a host and strips a port, brackets and a trailing dot.
func normalizeHost(h string) string {
	h = strings.ToLower(strings.TrimSpace(h))
	if host, _, err := net.SplitHostPort(h); err == nil {
		h = host
	}
	h = strings.TrimSuffix(strings.TrimPrefix(h, "["), "]")
	return strings.TrimSuffix(h, ".")
}

// HostAllowed blocks DNS rebinding: the Host header must name this machine.
func (g *Guard) HostAllowed(host string) bool {
	return host != "" && g.hosts[normalizeHost(host)]
}

// OriginAllowed accepts requests without an Origin (non-browser clients, same-origin
// GETs) and those from the app's own or configured origins.
func (g *Guard) OriginAllowed(r *http.Request) bool {
	origin := r.Header.Get("Origin")
	return origin == "" || g.origins[strings.ToLower(origin)]
}

// Required reports whether a token is configured.
func (g *Guard) Required() bool { return len(g.tokens) > 0 }

// Authorized compares a token with every accepted one in constant time.
func (g *Guard) Authorized(token string) bool {
	if !g.Required() {
		return true
	}
	return g.tokens.accepts(token)
}

func (g *Guard) authorizedRequest(r *http.Request) bool {
	if !g.Required() {
		return true
	}
	if t, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer "); ok {
		return g.Authorized(t)
	}
	if t := r.Header.Get("X-Api-Key"); t != "" {
		return g.Authorized(t)
	}
	return false
}

const corsAllowHeaders = "Authorization, Content-Type, X-Api-Key, X-Client-Id, X-Terminal-Token, X-Wisp-Upload, Last-Event-ID"

// protect refuses foreign hosts and origins and answers CORS for allowed origins.
func (s *Server) protect(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !s.guard.HostAllowed(r.Host) {
			writeJSON(w, http.StatusForbidden, map[string]string{"error": "host not allowed: Wisp answers only on loopback names"})
			return
		}
		if !s.guard.OriginAllowed(r) {
			writeJSON(w, http.StatusForbidden, map[string]string{"error": "origin not allowed"})
			return
		}
		if r.URL.Path != "/ws" && strings.EqualFold(r.Header.Get("Upgrade"), "websocket") {
			writeJSON(w, http.StatusNotFound, map[string]string{"error": "WebSocket upgrades are served only at /ws"})
			return
		}
		if origin := r.Header.Get("Origin"); origin != "" {
			h := w.Header()
			h.Set("Access-Control-Allow-Origin", origin)
			h.Add("Vary", "Origin")
			h.Set("Access-Control-Expose-Headers", "Content-Type, X-Wisp-Run-Id, X-Wisp-Message-Id")
			if r.Method == http.MethodOptions && r.Header.Get("Access-Control-Request-Method") != "" {
				h.Set("Access-Control-Allow-Methods", "GET, POST, PUT, PATCH, DELETE, OPTIONS")
				h.Set("Access-Control-Allow-Headers", corsAllowHeaders)
				h.Set("Access-Control-Max-Age", "600")
				w.WriteHeader(http.StatusNoContent)
				return
			}
		}
		next.ServeHTTP(w, r)
	})
}
