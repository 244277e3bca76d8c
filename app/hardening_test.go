package app

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"
)

// request sends an empty request with the given Content-Type ("" sends none) and the
// App's own token, and returns the status, the headers and the body.
func request(t *testing.T, a *App, method, path, contentType string) (int, http.Header, []byte) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	r, err := http.NewRequestWithContext(ctx, method, a.URL()+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	if contentType != "" {
		r.Header.Set("Content-Type", contentType)
	}
	if own := ownTokenOf(a); own != "" {
		r.Header.Set("Authorization", "Bearer "+own)
	}
	resp, err := http.DefaultClient.Do(r)
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	var body []byte
	if !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		body, _ = io.ReadAll(resp.Body)
	}
	return resp.StatusCode, resp.Header, body
}

// An empty form POST, which a browser sends to another site without asking it, no
// longer restarts Wisp or creates a conversation; the UI's empty POST (no body, no
// Content-Type) still does.
func TestEmptyFormPostsAreRefused(t *testing.T) {
	a := startApp(t, testOptions(t, t.TempDir(), nil))
	defer a.Stop()
	for _, path := range []string{"/api/agent/restart", "/api/conversations"} {
		for _, ct := range []string{"application/x-www-form-urlencoded", "text/plain", "multipart/form-data; boundary=b"} {
			status, _, body := request(t, a, "POST", path, ct)
			var m map[string]string
			if status != http.StatusUnsupportedMediaType || json.Unmarshal(body, &m) != nil || !strings.Contains(m["error"], "application/json") {
				t.Errorf("POST %s as %s: %d %s, want 415 with a JSON error", path, ct, status, body)
			}
		}
		if status, _, body := request(t, a, "POST", path, ""); status != http.StatusOK {
			t.Errorf("POST %s without a body or a type: %d %s, want 200", path, status, body)
		}
	}
	_, _, body := request(t, a, "GET", "/api/conversations", "")
	if n := strings.Count(string(body), `"id":`); n != 1 {
		t.Fatalf("%d conversations after one accepted POST: %s", n, body)
	}
}

// routePattern finds the route table's patterns in the API's sources.
var routePattern = regexp.MustCompile(`mux\.Handle\("([^"]+)"`)

// routes reads every pattern of the route table from app/api, so a route added
// later is walked too.
func routes(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("api", "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range routePattern.FindAllStringSubmatch(string(src), -1) {
			out = append(out, m[1])
		}
	}
	if len(out) < 40 {
		t.Fatalf("found only %d routes in app/api: %v", len(out), out)
	}
	return out
}

var pathValue = regexp.MustCompile(`\{[^}]*\}`)

// Every route of the route table, the fallback and the UI answer with nosniff. A
// state-changing route is asked with an empty text/plain body, which it refuses
// before its handler runs (so the walk changes nothing).
func TestEveryRouteSaysNosniff(t *testing.T) {
	a := startApp(t, testOptions(t, t.TempDir(), nil))
	defer a.Stop()
	patterns := append(routes(t), "GET /api/no-such-route", "DELETE /api/status", "GET /v1/no-such-route",
		"GET /", "GET /settings/general", "GET /no-such-file.js", "POST /not-the-api")
	for _, p := range patterns {
		method, path, ok := strings.Cut(p, " ")
		if !ok {
			method, path = "GET", p
		}
		path = pathValue.ReplaceAllString(path, "x")
		contentType := ""
		if method != "GET" && method != "HEAD" {
			contentType = "text/plain"
		}
		status, header, body := request(t, a, method, path, contentType)
		if header.Get("X-Content-Type-Options") != "nosniff" {
			t.Errorf("%s %s: %d without nosniff (%v)", method, path, status, header)
		}
		if status >= 500 {
			t.Errorf("%s %s: %d %s", method, path, status, body)
		}
		if contentType != "" && path != "/not-the-api" && status != http.StatusUnsupportedMediaType {
			t.Errorf("%s %s with an empty text/plain body: %d %s, want 415", method, path, status, body)
		}
	}
}

// A FIFO where the config file should be does not hold Wisp: a start says what is
// wrong instead of never listening, and while Wisp runs it is a config-error (the last
// good settings kept), a save is refused at once, and Stop ends.
func TestAFIFOAsTheConfigFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "wisp.json")
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := within(t, "New", func() error { _, err := New(testOptions(t, dir, nil)); return err }); err == nil ||
		!strings.Contains(err.Error(), "is a named pipe, not a regular file") {
		t.Fatalf("a start with a FIFO: %v", err)
	}
	os.Remove(path)

	a := startTerminal(t, `{"character":{"name":"Good"}}`, nil)
	w := dialSocket(t, a.App, "")
	fifo := a.settings.Path() + ".fifo"
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(fifo, a.settings.Path()); err != nil {
		t.Fatal(err)
	}
	if msg := str(w.waitFor(t, ofType("config-error"))["message"]); !strings.Contains(msg, "is a named pipe") {
		t.Fatalf("config-error %q", msg)
	}
	st := a.statusWhere("the config error", func(s map[string]any) bool { return s["configError"] != nil })
	if st["agentName"] != "Good" {
		t.Fatalf("the last good config was not kept: %v", st)
	}
	var put answer
	within(t, "PUT /api/config", func() error {
		put = a.do("PUT", "/api/config", `{"character":{"bio":"x"}}`, nil)
		return nil
	})
	if put.status != http.StatusConflict || !strings.Contains(str(put.body["error"]), "named pipe") {
		t.Fatalf("PUT over a FIFO: %d %v", put.status, put.body)
	}
	within(t, "Stop", a.Stop)
}

// within runs fn and fails if it does not return within a deadline (a deadline, not
// a speed claim: what blocks on a FIFO never returns; the binary ends then, since
// nothing can unblock it from here).
func within(t *testing.T, what string, fn func() error) (time.Duration, error) {
	t.Helper()
	began := time.Now()
	done := make(chan error, 1)
	go func() { done <- fn() }()
	select {
	case err := <-done:
		return time.Since(began), err
	case <-time.After(20 * time.Second):
		panic(what + " did not return: it is blocked")
	}
}
