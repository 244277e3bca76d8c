package app

import (
	"bufio"
	"context"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gorilla/websocket"
)

// A `wisp serve` App on dir with the environment env, not started.
func newServeApp(t *testing.T, dir string, env map[string]string) (*App, error) {
	t.Helper()
	opts := testOptions(t, dir, env)
	opts.KeepToken = true
	return New(opts)
}

func readTokenFile(t *testing.T, dir string) (string, os.FileMode) {
	t.Helper()
	path := filepath.Join(dir, tokenFileName)
	info, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(string(data)), info.Mode().Perm()
}

const keptToken = "kept-token-0123456789-abcdefghijklmnopqrstuv"

func TestServeTokenResolution(t *testing.T) {
	tests := []struct {
		name   string
		config string // wisp.json, "" for none
		env    map[string]string
		file   string      // content of api-token before the start; "" for no file
		mode   os.FileMode // its mode (0600 when 0)
		want   string      // the token the API takes; "new" for a freshly made one
		// kept is what api-token holds afterwards: "" for no file, "new" for the token made.
		kept string
	}{
		{name: "first start makes and keeps one", want: "new", kept: "new"},
		{name: "a later start reuses it", file: keptToken, want: keptToken, kept: keptToken},
		{name: "surrounding blanks are ignored", file: "\n" + keptToken + "\n\n", want: keptToken, kept: keptToken},
		{name: "WISP_API_TOKEN wins", env: map[string]string{"WISP_API_TOKEN": "from-env"}, file: keptToken, want: "from-env", kept: keptToken},
		{name: "WISP_API_TOKEN wins, no file is made", env: map[string]string{"WISP_API_TOKEN": "from-env"}, want: "from-env"},
		{name: "the config's api.token wins", config: `{"api":{"token":"from-file"}}`, want: "from-file"},
		{name: "an empty file is replaced", file: " \n", want: "new", kept: "new"},
		{name: "a corrupt file is replaced", file: "not a token, just words", want: "new", kept: "new"},
		{name: "a short token is replaced", file: "abc123", want: "new", kept: "new"},
		{name: "a file others may read is replaced", file: keptToken, mode: 0o644, want: "new", kept: "new"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			if tt.config != "" {
				if err := os.WriteFile(filepath.Join(dir, "wisp.json"), []byte(tt.config), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			if tt.file != "" {
				path := filepath.Join(dir, tokenFileName)
				if err := os.WriteFile(path, []byte(tt.file), 0o600); err != nil {
					t.Fatal(err)
				}
				if tt.mode != 0 {
					if err := os.Chmod(path, tt.mode); err != nil {
						t.Fatal(err)
					}
				}
			}
			a, err := newServeApp(t, dir, tt.env)
			if err != nil {
				t.Fatal(err)
			}
			cfg := a.settings.Live()
			got, err := a.ownToken(cfg)
			if err != nil {
				t.Fatal(err)
			}
			if cfg.API.Token != "" {
				got = cfg.API.Token
			}
			if tt.want == "new" {
				if !validToken(got) || len(got) != 43 || got == keptToken {
					t.Fatalf("made token %q: want 43 URL-safe characters", got)
				}
			} else if got != tt.want {
				t.Fatalf("token %q, want %q", got, tt.want)
			}

			if tt.kept == "" {
				if _, err := os.Stat(filepath.Join(dir, tokenFileName)); !os.IsNotExist(err) {
					t.Fatalf("api-token exists (%v); a configured token should leave it alone", err)
				}
				return
			}
			kept, mode := readTokenFile(t, dir)
			wantKept := tt.kept
			if wantKept == "new" {
				wantKept = got
			}
			if kept != wantKept || mode != 0o600 {
				t.Fatalf("api-token holds %q (mode %#o), want %q (0600)", kept, mode, wantKept)
			}
			if cfg.API.Token != "" {
				return
			}
			// The next start takes the same token.
			b, err := newServeApp(t, dir, tt.env)
			if err != nil {
				t.Fatal(err)
			}
			if again, _ := b.ownToken(b.settings.Live()); again != got {
				t.Fatalf("second start: %q, want %q", again, got)
			}
		})
	}
}

func TestServeTokenUnreadableIsAnError(t *testing.T) {
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, tokenFileName), 0o700); err != nil { // not a file at all
		t.Fatal(err)
	}
	// The kept token is read once the state folder's lock is held: at the start.
	a, err := newServeApp(t, dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	err = a.Start(context.Background())
	if err == nil || !strings.Contains(err.Error(), "read the API token") || !strings.Contains(err.Error(), "not a regular file") {
		t.Fatalf("err = %v", err)
	}
	if err := a.Stop(); err != nil {
		t.Fatalf("stopping after the refused start: %v", err)
	}
	// A configured token does not need the file.
	if _, err := newServeApp(t, dir, map[string]string{"WISP_API_TOKEN": "t"}); err != nil {
		t.Fatalf("with WISP_API_TOKEN: %v", err)
	}
}

// `wisp serve` prints the listening line first (scripts wait for it), then the URL to
// open with the token in its fragment. The API refuses a request without the token
// and takes it with it; the UI's own files and /api/health stay public.
func TestServePrintsTheTokenURL(t *testing.T) {
	dir := t.TempDir()
	a, err := newServeApp(t, dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	pr, pw := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- Serve(ctx, a, pw); pw.Close() }()
	defer func() {
		cancel()
		if err := <-done; err != nil {
			t.Error(err)
		}
	}()
	out := bufio.NewReader(pr)
	listening, _ := out.ReadString('\n')
	running, err := out.ReadString('\n')
	go io.Copy(io.Discard, pr)
	if err != nil || listening != "Wisp is listening on "+a.URL()+"\n" {
		t.Fatalf("first line %q, %v", listening, err)
	}
	open, ok := strings.CutPrefix(strings.TrimSuffix(running, "\n"), "Wisp is running: open ")
	if !ok {
		t.Fatalf("second line %q", running)
	}
	u, err := url.Parse(open)
	if err != nil {
		t.Fatal(err)
	}
	kept, _ := readTokenFile(t, dir)
	frag, _ := url.ParseQuery(u.Fragment)
	if u.Scheme+"://"+u.Host != a.URL() || u.Path != "/" || u.RawQuery != "" || frag.Get("token") != kept {
		t.Fatalf("open URL %q: want %s/#token=<the kept token %s>", open, a.URL(), kept)
	}

	status := func(token string) int {
		h := map[string]string{}
		if token != "" {
			h["Authorization"] = "Bearer " + token
		}
		resp, _ := fetch(t, a.URL()+"/api/status", h)
		return resp.StatusCode
	}
	if got := status(""); got != http.StatusUnauthorized {
		t.Errorf("GET /api/status without the token: %d, want 401", got)
	}
	if got := status("wrong"); got != http.StatusUnauthorized {
		t.Errorf("GET /api/status with a wrong token: %d, want 401", got)
	}
	if got := status(kept); got != http.StatusOK {
		t.Errorf("GET /api/status with the token: %d, want 200", got)
	}
	for _, path := range []string{"/", "/api/health"} {
		if resp, _ := fetch(t, a.URL()+path, nil); resp.StatusCode != http.StatusOK {
			t.Errorf("GET %s without the token: %d, want 200", path, resp.StatusCode)
		}
	}
	wsURL := strings.Replace(a.URL(), "http", "ws", 1) + "/ws"
	if conn, resp, err := websocket.DefaultDialer.Dial(wsURL, http.Header{"Authorization": {"Bearer wrong"}}); err == nil {
		conn.Close()
		t.Errorf("/ws with a wrong token connected")
	} else if resp == nil || resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("/ws with a wrong token: %v", err)
	}
	// Without a header, the first frame must carry the token.
	conn, _, err := websocket.DefaultDialer.Dial(wsURL, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if err := conn.WriteJSON(map[string]string{"type": "auth", "token": "wrong"}); err != nil {
		t.Fatal(err)
	}
	if _, _, err := conn.ReadMessage(); !websocket.IsCloseError(err, websocket.ClosePolicyViolation) {
		t.Errorf("/ws with a wrong auth frame: %v, want close 1008", err)
	}
	dialSocketHeader(t, wsURL, http.Header{"Authorization": {"Bearer " + kept}})
}

// Shell access is never served without an API token: not at start, not through the
// settings API (400, and nothing saved), not by a hand edit (the file is refused).
// With the token `wisp serve` keeps, it just works, with no terminal token.
func TestShellNeedsAnAPIToken(t *testing.T) {
	const needs = "shell access needs an API token"
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "wisp.json"), []byte(shellOn), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := New(testOptions(t, dir, nil)); err == nil || !strings.Contains(err.Error(), needs) {
		t.Fatalf("start with shell on and no token: %v", err)
	}
	serve := startTerminal(t, shellOn, nil) // KeepToken, as `wisp serve`
	w := dialSocket(t, serve.App, "clientId=tab")
	if out, _ := terminalOutput(t, w, serve.runFor("tab", "echo served")); !strings.Contains(out, "served") {
		t.Fatalf("shell run under the kept token: %q", out)
	}

	a := &termApp{App: startApp(t, testOptions(t, t.TempDir(), nil)), t: t} // no token at all
	t.Cleanup(func() { a.Stop() })
	for _, req := range []struct{ method, path, body string }{
		{"PUT", "/api/config", `{"features":{"shellEnabled":true}}`},
		{"PUT", "/api/permissions/shell", `{"enabled":true}`},
	} {
		got := a.do(req.method, req.path, req.body, nil)
		if got.status != http.StatusBadRequest || !strings.Contains(str(got.body["error"]), needs) ||
			!strings.Contains(str(got.body["error"]), "WISP_API_TOKEN") {
			t.Errorf("%s %s: %d %v, want 400 %q", req.method, req.path, got.status, got.body, needs)
		}
	}
	if data, err := os.ReadFile(a.settings.Path()); err == nil && strings.Contains(string(data), `"shellEnabled": true`) {
		t.Fatalf("the refused change was saved: %s", data)
	}
	if st := a.do("GET", "/api/status", nil, nil).body; st["pendingRestart"] != false || st["configError"] != nil {
		t.Fatalf("status after the refusals: %v", st)
	}

	ws := dialSocket(t, a.App, "")
	handEdit(t, a.App, shellOn)
	if msg := str(ws.waitFor(t, ofType("config-error"))["message"]); !strings.Contains(msg, needs) {
		t.Fatalf("config-error %q", msg)
	}
}
