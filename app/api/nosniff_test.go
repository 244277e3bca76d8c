package api

import (
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"testing"
)

// Every answer says nosniff, whoever writes it: a handler, the fallback, the UI, the
// guard's refusals, the preflight, the panic recovery.
func TestEveryResponseSaysNosniff(t *testing.T) {
	e := newEnv(t, "tok")
	auth := map[string]string{"Authorization": "Bearer tok"}
	cases := []struct {
		name string
		rq   req
		want int
	}{
		{"JSON GET", req{path: "/api/status", header: auth}, 200},
		{"public JSON GET", req{path: "/api/health"}, 200},
		{"no token", req{path: "/api/status"}, 401},
		{"a refused body type", req{method: "POST", path: "/api/agent/event", header: map[string]string{
			"Authorization": "Bearer tok", "Content-Type": "text/plain"}}, 415},
		{"a bad body", req{method: "POST", path: "/api/agent/event", body: "{", header: auth}, 400},
		{"foreign host", req{path: "/api/status", header: map[string]string{"Host": "evil.example"}}, 403},
		{"foreign origin", req{path: "/api/status", header: map[string]string{"Origin": "http://evil.example"}}, 403},
		{"preflight", req{method: "OPTIONS", path: "/api/status", header: map[string]string{
			"Origin": "https://friend.example", "Access-Control-Request-Method": "POST"}}, 204},
		{"unknown API path", req{path: "/api/nope", header: auth}, 404},
		{"wrong method", req{method: "DELETE", path: "/api/status", header: auth}, 405},
		{"unknown /v1 path", req{path: "/v1/nope", header: auth}, 404},
		{"POST outside the API", req{method: "POST", path: "/somewhere"}, 404},
		{"UI index", req{path: "/"}, 200},
		{"UI client route", req{path: "/settings/general"}, 200},
		{"UI asset", req{path: "/assets/app-1.js"}, 200},
		{"UI file missing", req{path: "/nope.js"}, 404},
		{"socket without upgrade", req{path: "/ws"}, 400},
	}
	for _, tc := range cases {
		resp, _ := e.do(t, tc.rq)
		if resp.StatusCode != tc.want || resp.Header.Get("X-Content-Type-Options") != "nosniff" {
			t.Errorf("%s: %d, X-Content-Type-Options %q; want %d and nosniff", tc.name, resp.StatusCode,
				resp.Header.Get("X-Content-Type-Options"), tc.want)
		}
	}

	s := &Server{log: slog.New(slog.NewTextHandler(io.Discard, nil))}
	rec := httptest.NewRecorder()
	s.observe(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { panic("boom") })).
		ServeHTTP(rec, httptest.NewRequest("GET", "/api/x", nil))
	if rec.Code != 500 || rec.Header().Get("X-Content-Type-Options") != "nosniff" {
		t.Errorf("a panic: %d %v", rec.Code, rec.Header())
	}
}
