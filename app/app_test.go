package app

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/gorilla/websocket"
	"go.uber.org/goleak"

	"github.com/wispapp/wisp/doctext"
)

func TestMain(m *testing.M) {
	doctext.RunChildIfAsked() // the PDF reader the documents' tests start
	code := m.Run()
	// Keep-alive connections the test clients hold to servers that are gone are not
	// leaks of Wisp; drop them before looking for goroutines left behind.
	http.DefaultClient.CloseIdleConnections()
	if code == 0 {
		if err := goleak.Find(); err != nil {
			fmt.Fprintln(os.Stderr, "goleak:", err)
			code = 1
		}
	}
	os.Exit(code)
}

func testOptions(t *testing.T, dir string, env map[string]string) Options {
	return Options{
		Port: 0, StateDir: dir, Getenv: func(k string) string { return env[k] },
		UI:        fstest.MapFS{"index.html": {Data: []byte("<title>Wisp</title>")}},
		Logger:    slog.New(slog.NewTextHandler(io.Discard, nil)),
		OllamaURL: "http://127.0.0.1:9", // nothing listens: no local Ollama in tests
	}
}

func startApp(t *testing.T, opts Options) *App {
	t.Helper()
	a, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	if err := a.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	return a
}

// post sends body with token, or with the App's own token when token is "".
func post(t *testing.T, a *App, path, body, token string) map[string]any {
	t.Helper()
	r, _ := http.NewRequest("POST", a.URL()+path, strings.NewReader(body))
	r.Header.Set("Content-Type", "application/json")
	if token == "" {
		token = ownTokenOf(a)
	}
	if token != "" {
		r.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(r)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var m map[string]any
	json.NewDecoder(resp.Body).Decode(&m)
	if resp.StatusCode != 200 {
		t.Fatalf("POST %s: %d %v", path, resp.StatusCode, m)
	}
	return m
}

// Envelopes published before a restart are replayed after it, numbering continues,
// and Stop leaves no goroutine behind (TestMain checks).
func TestReplaySurvivesRestart(t *testing.T) {
	dir := t.TempDir()
	a := startApp(t, testOptions(t, dir, nil))
	for i := 0; i < 5; i++ {
		post(t, a, "/api/agent/event", `{"stream":"system","payload":{"i":1}}`, "")
	}
	if err := a.Stop(); err != nil {
		t.Fatal(err)
	}

	b := startApp(t, testOptions(t, dir, nil))
	defer b.Stop()
	if got := post(t, b, "/api/agent/event", `{"stream":"system","payload":{}}`, ""); got["eventId"] != "evt-6" {
		t.Fatalf("numbering after restart: %v", got)
	}
	conn, _, err := websocket.DefaultDialer.Dial(strings.Replace(b.URL(), "http", "ws", 1)+"/ws?lastEventId=evt-3", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	conn.SetReadDeadline(time.Now().Add(15 * time.Second))
	var ids []string
	for len(ids) < 3 {
		var m map[string]any
		if err := conn.ReadJSON(&m); err != nil {
			t.Fatal(err)
		}
		if m["type"] == "status" {
			if _, ok := m["pendingRestart"]; ok {
				t.Fatal("initial status carries pendingRestart")
			}
			continue
		}
		ids = append(ids, m["eventId"].(string))
	}
	if strings.Join(ids, ",") != "evt-4,evt-5,evt-6" {
		t.Fatalf("replay after restart: %v", ids)
	}
}

func TestStatus(t *testing.T) {
	a := startApp(t, testOptions(t, t.TempDir(), map[string]string{"WISP_MODEL": "m1"}))
	defer a.Stop()
	resp, err := http.Get(a.URL() + "/api/status")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var s map[string]any
	json.NewDecoder(resp.Body).Decode(&s)
	if s["state"] != "running" || s["agentName"] != "Wisp" || s["model"] != "m1" || s["canRespond"] != false ||
		s["canRespondReason"] == "" || s["pendingRestart"] != false || s["startedAt"].(float64) <= 0 {
		t.Fatalf("status %v", s)
	}
	if _, ok := s["pendingRestartReasons"].([]any); !ok {
		t.Fatalf("pendingRestartReasons is not a list: %v", s)
	}
}

func TestNonLoopbackNeedsToken(t *testing.T) {
	opts := testOptions(t, t.TempDir(), nil)
	opts.Host = "0.0.0.0"
	if _, err := New(opts); err == nil || !strings.Contains(err.Error(), "without an API token") {
		t.Fatalf("err = %v", err)
	}
	opts.Getenv = func(k string) string { return map[string]string{"WISP_API_TOKEN": "t"}[k] }
	if _, err := New(opts); err != nil {
		t.Fatalf("with a token: %v", err)
	}
}

func TestDesktopLaunchToken(t *testing.T) {
	opts := testOptions(t, t.TempDir(), nil)
	opts.Desktop = true
	a := startApp(t, opts)
	defer a.Stop()
	c := a.Connection()
	if len(c.Token) != 64 || !strings.HasPrefix(c.BaseURL, "http://127.0.0.1:") || c.WSURL != strings.Replace(c.BaseURL, "http", "ws", 1)+"/ws" {
		t.Fatalf("connection %+v", c)
	}
	resp, err := http.Get(c.BaseURL + "/api/status")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 401 {
		t.Fatalf("desktop API without the launch token: %d", resp.StatusCode)
	}
	post(t, a, "/api/ui/ready", `{"api":true,"ws":true}`, c.Token)
}

func TestServePrintsURLAndStops(t *testing.T) {
	a, err := New(testOptions(t, t.TempDir(), nil))
	if err != nil {
		t.Fatal(err)
	}
	pr, pw := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- Serve(ctx, a, pw); pw.Close() }()
	line, err := bufio.NewReader(pr).ReadString('\n')
	if err != nil || !strings.HasPrefix(line, "Wisp is listening on http://127.0.0.1:") {
		t.Fatalf("line %q, %v", line, err)
	}
	go io.Copy(io.Discard, pr)
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}

func TestPortInUse(t *testing.T) {
	a := startApp(t, testOptions(t, t.TempDir(), nil))
	defer a.Stop()
	opts := testOptions(t, t.TempDir(), nil)
	opts.Port = a.Port()
	b, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	if err := b.Start(context.Background()); err == nil || !strings.Contains(err.Error(), "address already in use") {
		b.Stop()
		t.Fatalf("serve on a taken port: %v", err)
	}
	opts.Desktop = true // the window finds another port instead
	d := startApp(t, opts)
	defer d.Stop()
	if d.Port() == a.Port() {
		t.Fatal("desktop took the same port")
	}
}
