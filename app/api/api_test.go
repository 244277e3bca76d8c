package api

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/gorilla/websocket"
	"github.com/wispapp/wisp/app/wire"
	"github.com/wispapp/wisp/app/ws"
	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

type env struct {
	srv  *httptest.Server
	hub  *ws.Hub
	port string
}

var testUI = fstest.MapFS{
	"index.html":       {Data: []byte("<!doctype html><title>Wisp</title>")},
	"assets/app-1.js":  {Data: []byte("console.log(1)")},
	"favicon.svg":      {Data: []byte("<svg/>")},
	"assets/style.css": {Data: []byte("body{}")},
}

func newEnv(t *testing.T, tokens ...string) *env {
	t.Helper()
	e := &env{}
	// The guard needs the port before the server exists: start unstarted, then fill in.
	var handler http.Handler
	e.srv = httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		handler.ServeHTTP(w, r)
	}))
	e.srv.Start()
	e.port = e.srv.URL[strings.LastIndex(e.srv.URL, ":")+1:]
	port, _ := strconv.Atoi(e.port)
	g := NewGuard(GuardOptions{Port: port, BindHost: "127.0.0.1", ExtraOrigins: []string{"https://Friend.example/"},
		ExtraHosts: []string{"wisp.lan"}, Tokens: tokens, Webview: true})
	e.hub = ws.New(ws.Options{Gate: g})
	if err := e.hub.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	s := New(Options{Guard: g, Hub: e.hub, UI: testUI, Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
		Status: func() wire.Status {
			return wire.Status{State: "running", AgentName: "Wisp", RestartState: wire.NewRestartState(nil)}
		}})
	handler = s.Handler()
	t.Cleanup(func() {
		e.hub.Stop()
		e.srv.Close()
	})
	return e
}

type req struct {
	method, path, body string
	header             map[string]string
}

func (e *env) do(t *testing.T, rq req) (*http.Response, map[string]any) {
	t.Helper()
	if rq.method == "" {
		rq.method = "GET"
	}
	r, err := http.NewRequest(rq.method, e.srv.URL+rq.path, strings.NewReader(rq.body))
	if err != nil {
		t.Fatal(err)
	}
	if rq.body != "" {
		r.Header.Set("Content-Type", "application/json")
	}
	for k, v := range rq.header {
		if k == "Host" {
			r.Host = v
			continue
		}
		r.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(r)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	var m map[string]any
	if strings.HasPrefix(resp.Header.Get("Content-Type"), "application/json") {
		if err := json.Unmarshal(data, &m); err != nil {
			t.Fatalf("%s %s: bad JSON %q", rq.method, rq.path, data)
		}
	}
	return resp, m
}

func TestHostHeader(t *testing.T) {
	e := newEnv(t)
	cases := map[string]int{
		"127.0.0.1:" + e.port: 200, "localhost:" + e.port: 200, "LOCALHOST": 200, "[::1]:9": 200,
		"localhost.": 200, "wisp.lan:1": 200,
		"evil.example": 403, "evil.example:" + e.port: 403, "127.0.0.1.evil.example": 403, "localhost.evil": 403,
		"10.0.0.1": 403,
	}
	for host, want := range cases {
		resp, body := e.do(t, req{path: "/api/status", header: map[string]string{"Host": host}})
		if resp.StatusCode != want {
			t.Errorf("Host %q: %d, want %d", host, resp.StatusCode, want)
		}
		if want == 403 && body["error"] == nil {
			t.Errorf("Host %q: no JSON error", host)
		}
	}
}

func TestOriginAndCORS(t *testing.T) {
	e := newEnv(t)
	own := "http://127.0.0.1:" + e.port
	for origin, want := range map[string]int{
		own: 200, "http://localhost:" + e.port: 200, "wails://wails": 200, "http://wails.localhost": 200,
		"https://friend.example": 200,
		"http://evil.example":    403, "http://127.0.0.1:1": 403, "null": 403, "http://localhost": 403,
	} {
		resp, _ := e.do(t, req{path: "/api/status", header: map[string]string{"Origin": origin}})
		if resp.StatusCode != want {
			t.Errorf("Origin %q: %d, want %d", origin, resp.StatusCode, want)
		}
		if want == 200 && resp.Header.Get("Access-Control-Allow-Origin") != origin {
			t.Errorf("Origin %q: ACAO %q", origin, resp.Header.Get("Access-Control-Allow-Origin"))
		}
	}
	pre := map[string]string{"Origin": "wails://wails", "Access-Control-Request-Method": "POST",
		"Access-Control-Request-Headers": "authorization,content-type"}
	resp, _ := e.do(t, req{method: "OPTIONS", path: "/api/agent/event", header: pre})
	if resp.StatusCode != 204 || !strings.Contains(resp.Header.Get("Access-Control-Allow-Headers"), "Authorization") {
		t.Errorf("preflight: %d %v", resp.StatusCode, resp.Header)
	}
	pre["Origin"] = "http://evil.example"
	if resp, _ := e.do(t, req{method: "OPTIONS", path: "/api/agent/event", header: pre}); resp.StatusCode != 403 {
		t.Errorf("foreign preflight: %d", resp.StatusCode)
	}
	if resp, _ := e.do(t, req{path: "/api/status"}); resp.Header.Get("Access-Control-Allow-Origin") != "" {
		t.Error("ACAO sent without an Origin")
	}
}

// Without the desktop window (wisp serve) the webview's origins are foreign.
func TestWebviewOriginsOnlyWithTheWindow(t *testing.T) {
	for _, webview := range []bool{false, true} {
		g := NewGuard(GuardOptions{Port: 2138, BindHost: "127.0.0.1", Webview: webview})
		for _, origin := range []string{"wails://wails", "http://wails.localhost", "WAILS://WAILS"} {
			r := httptest.NewRequest("GET", "/api/status", nil)
			r.Header.Set("Origin", origin)
			if got := g.OriginAllowed(r); got != webview {
				t.Errorf("webview %v, Origin %q: allowed %v", webview, origin, got)
			}
		}
	}
}

func TestTokens(t *testing.T) {
	e := newEnv(t, "tok-1", "launch-2")
	cases := []struct {
		name   string
		path   string
		header map[string]string
		want   int
	}{
		{"missing", "/api/status", nil, 401},
		{"wrong bearer", "/api/status", map[string]string{"Authorization": "Bearer nope"}, 401},
		{"prefix of the token", "/api/status", map[string]string{"Authorization": "Bearer tok-"}, 401},
		{"basic scheme", "/api/status", map[string]string{"Authorization": "Basic tok-1"}, 401},
		{"bearer", "/api/status", map[string]string{"Authorization": "Bearer tok-1"}, 200},
		{"second token", "/api/status", map[string]string{"Authorization": "Bearer launch-2"}, 200},
		{"x-api-key", "/api/status", map[string]string{"X-Api-Key": "tok-1"}, 200},
		{"wrong x-api-key", "/api/status", map[string]string{"X-Api-Key": "tok-2"}, 401},
		{"health is public", "/api/health", nil, 200},
		{"ui is public", "/", nil, 200},
	}
	for _, tc := range cases {
		resp, body := e.do(t, req{path: tc.path, header: tc.header})
		if resp.StatusCode != tc.want {
			t.Errorf("%s: %d, want %d", tc.name, resp.StatusCode, tc.want)
		}
		if tc.want == 401 && !strings.Contains(body["error"].(string), "token") {
			t.Errorf("%s: error %v", tc.name, body)
		}
	}
}

func TestBodiesAndErrors(t *testing.T) {
	e := newEnv(t)
	big := `{"stream":"system","payload":{"x":"` + strings.Repeat("a", MaxBodyBytes) + `"}}`
	cases := []struct {
		name string
		rq   req
		want int
		msg  string
	}{
		{"form body", req{method: "POST", path: "/api/agent/event", body: "a=1", header: map[string]string{"Content-Type": "application/x-www-form-urlencoded"}}, 415, "application/json"},
		{"no body", req{method: "POST", path: "/api/agent/event"}, 400, "required"},
		{"too large", req{method: "POST", path: "/api/agent/event", body: big}, 413, "larger"},
		{"bad json", req{method: "POST", path: "/api/agent/event", body: `{"stream":`}, 400, "invalid JSON"},
		{"two values", req{method: "POST", path: "/api/agent/event", body: `{} {}`}, 400, "more than one"},
		{"bad stream", req{method: "POST", path: "/api/agent/event", body: `{"stream":"nope","payload":{}}`}, 400, "stream"},
		{"no stream", req{method: "POST", path: "/api/agent/event", body: `{"payload":{}}`}, 400, "stream"},
		{"payload array", req{method: "POST", path: "/api/agent/event", body: `{"stream":"system","payload":[1]}`}, 400, "payload"},
		{"payload missing", req{method: "POST", path: "/api/agent/event", body: `{"stream":"system"}`}, 400, "payload"},
		{"bad kind", req{method: "POST", path: "/api/agent/event", body: `{"stream":"system","payload":{},"kind":"x"}`}, 400, "kind"},
		{"unknown endpoint", req{path: "/api/nope"}, 404, "no such endpoint"},
		{"wrong method", req{method: "DELETE", path: "/api/status"}, 405, "method not allowed"},
		{"upgrade elsewhere", req{path: "/api/status", header: map[string]string{"Upgrade": "websocket", "Connection": "Upgrade"}}, 404, "/ws"},
		{"ws without upgrade", req{path: "/ws"}, 400, "WebSocket"},
		{"ws foreign origin", req{path: "/ws", header: map[string]string{"Origin": "http://evil.example"}}, 403, "origin"},
		{"ui file missing", req{path: "/nope.js"}, 404, "not found"},
	}
	for _, tc := range cases {
		resp, body := e.do(t, tc.rq)
		if resp.StatusCode != tc.want {
			t.Errorf("%s: %d, want %d (%v)", tc.name, resp.StatusCode, tc.want, body)
			continue
		}
		if msg, _ := body["error"].(string); !strings.Contains(msg, tc.msg) {
			t.Errorf("%s: error %q, want it to mention %q", tc.name, msg, tc.msg)
		}
	}
}

func TestUIFiles(t *testing.T) {
	e := newEnv(t)
	resp, _ := e.do(t, req{path: "/"})
	if resp.StatusCode != 200 || resp.Header.Get("Cache-Control") != "no-cache" ||
		!strings.Contains(resp.Header.Get("Content-Security-Policy"), "default-src 'self'") {
		t.Errorf("index: %d %v", resp.StatusCode, resp.Header)
	}
	resp, _ = e.do(t, req{path: "/assets/app-1.js"})
	if resp.StatusCode != 200 || !strings.Contains(resp.Header.Get("Cache-Control"), "immutable") {
		t.Errorf("asset: %d %v", resp.StatusCode, resp.Header)
	}
	resp, _ = e.do(t, req{path: "/settings/general"})
	if resp.StatusCode != 200 || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/html") {
		t.Errorf("client route: %d %v", resp.StatusCode, resp.Header)
	}

	// A binary built without the UI says so instead of serving nothing.
	h := newUIHandler(fstest.MapFS{".keep": {}})
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", "/", nil))
	if rec.Code != 503 || !strings.Contains(rec.Body.String(), "not built") {
		t.Errorf("unbuilt UI: %d %s", rec.Code, rec.Body)
	}
}

func TestPanicBecomesJSON500(t *testing.T) {
	s := &Server{log: slog.New(slog.NewTextHandler(io.Discard, nil))}
	h := s.observe(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { panic("boom") }))
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", "/api/x", nil))
	if rec.Code != 500 || !strings.Contains(rec.Body.String(), `"error":"internal error"`) {
		t.Fatalf("panic: %d %s", rec.Code, rec.Body)
	}
}

func TestPublishReachesSocket(t *testing.T) {
	e := newEnv(t, "tok")
	wsURL := "ws" + strings.TrimPrefix(e.srv.URL, "http") + "/ws"
	conn, _, err := websocket.DefaultDialer.Dial(wsURL, http.Header{"Authorization": {"Bearer tok"}})
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	conn.SetReadDeadline(time.Now().Add(5 * time.Second))
	var first map[string]any
	if err := conn.ReadJSON(&first); err != nil || first["type"] != "status" {
		t.Fatalf("first frame %v, %v", first, err)
	}
	resp, body := e.do(t, req{method: "POST", path: "/api/agent/event",
		body:   `{"stream":"autonomy","kind":"heartbeat","payload":{"status":"thinking"},"runId":"r-1"}`,
		header: map[string]string{"Authorization": "Bearer tok"}})
	if resp.StatusCode != 200 || body["ok"] != true || body["eventId"] != "evt-1" {
		t.Fatalf("publish: %d %v", resp.StatusCode, body)
	}
	var env map[string]any
	if err := conn.ReadJSON(&env); err != nil {
		t.Fatal(err)
	}
	if env["type"] != "heartbeat_event" || env["eventId"] != "evt-1" || env["stream"] != "autonomy" || env["runId"] != "r-1" {
		t.Fatalf("envelope %v", env)
	}
}

func TestIsLoopback(t *testing.T) {
	for h, want := range map[string]bool{"127.0.0.1": true, "localhost": true, "::1": true, "[::1]": true, "127.1.2.3": true,
		"0.0.0.0": false, "::": false, "192.168.1.2": false, "wisp.lan": false} {
		if IsLoopback(h) != want {
			t.Errorf("IsLoopback(%q) = %v", h, !want)
		}
	}
}

// Real upgrades through the whole middleware chain: foreign origins and rebinding
// hosts are refused before the hub sees them.
func TestUpgradeRefusals(t *testing.T) {
	e := newEnv(t)
	wsURL := "ws" + strings.TrimPrefix(e.srv.URL, "http") + "/ws"
	cases := map[string]struct {
		header http.Header
		want   int
	}{
		"foreign origin":  {http.Header{"Origin": {"http://evil.example"}}, 403},
		"rebinding host":  {http.Header{"Host": {"evil.example:" + e.port}}, 403},
		"own origin":      {http.Header{"Origin": {"http://127.0.0.1:" + e.port}}, 101},
		"webview origin":  {http.Header{"Origin": {"wails://wails"}}, 101},
		"no origin (cli)": {nil, 101},
	}
	for name, tc := range cases {
		d := websocket.Dialer{}
		u := wsURL
		if h := tc.header.Get("Host"); h != "" {
			// gorilla takes the Host header from the URL: dial the real address with a forged Host.
			d.NetDial = func(network, _ string) (net.Conn, error) { return net.Dial(network, e.srv.Listener.Addr().String()) }
			u = "ws://" + h + "/ws"
			tc.header = nil
		}
		conn, resp, err := d.Dial(u, tc.header)
		if conn != nil {
			conn.Close()
		}
		got := 0
		if resp != nil {
			got = resp.StatusCode
		}
		if got != tc.want {
			t.Errorf("%s: status %d (%v), want %d", name, got, err, tc.want)
		}
	}
}

// Requests no route takes: under /api/ and /v1/ the token comes first (no answer
// tells a client without one that it needs none), then 405 with Allow for a path a
// route takes with another method, else 404, in each area's error shape; the UI is
// only for GET and HEAD.
func TestUnroutedRequests(t *testing.T) {
	e := newEnv(t, "tok")
	auth := map[string]string{"Authorization": "Bearer tok"}
	cases := []struct {
		name   string
		rq     req
		status int
		allow  string
		shape  string // "api": {error}; "v1": Anthropic's {type: error, error: {type}}; "html"
		v1Type string
	}{
		{"unknown /api without token", req{path: "/api/nope"}, 401, "", "api", ""},
		{"unknown /api POST without token", req{method: "POST", path: "/api/nope"}, 401, "", "api", ""},
		{"unknown /api", req{path: "/api/nope", header: auth}, 404, "", "api", ""},
		{"wrong method on a known route", req{method: "DELETE", path: "/api/status", header: auth}, 405, "GET, HEAD", "api", ""},
		{"GET of a POST route", req{path: "/api/agent/event", header: auth}, 405, "POST", "api", ""},
		{"unknown /v1 without token", req{path: "/v1/models/x/y"}, 401, "", "v1", "authentication_error"},
		{"unknown /v1", req{path: "/v1/complete", header: auth}, 404, "", "v1", "not_found_error"},
		{"unknown POST outside the API", req{method: "POST", path: "/somewhere"}, 404, "", "api", ""},
		{"DELETE of the UI", req{method: "DELETE", path: "/"}, 404, "", "api", ""},
		{"a client-side route", req{path: "/settings/general"}, 200, "", "html", ""},
	}
	for _, tc := range cases {
		resp, body := e.do(t, tc.rq)
		if resp.StatusCode != tc.status || resp.Header.Get("Allow") != tc.allow {
			t.Errorf("%s: %d Allow %q, want %d %q (%v)", tc.name, resp.StatusCode, resp.Header.Get("Allow"), tc.status, tc.allow, body)
			continue
		}
		switch tc.shape {
		case "api":
			if msg, _ := body["error"].(string); msg == "" {
				t.Errorf("%s: no JSON error: %v", tc.name, body)
			}
		case "v1":
			inner, _ := body["error"].(map[string]any)
			if body["type"] != "error" || inner["type"] != tc.v1Type || inner["message"] == "" {
				t.Errorf("%s: %v, want Anthropic's shape with %s", tc.name, body, tc.v1Type)
			}
		case "html":
			if !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/html") {
				t.Errorf("%s: %s", tc.name, resp.Header.Get("Content-Type"))
			}
		}
	}
}
