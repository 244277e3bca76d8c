package app

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gorilla/websocket"
)

// handEdit replaces the config file the way an editor's atomic save does.
func handEdit(t *testing.T, a *App, content string) {
	t.Helper()
	tmp := a.settings.Path() + ".swp"
	if err := os.WriteFile(tmp, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, a.settings.Path()); err != nil {
		t.Fatal(err)
	}
}

// statusWhere polls GET /api/status until match accepts it.
func (a *termApp) statusWhere(what string, match func(map[string]any) bool) map[string]any {
	a.t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for {
		s := a.do("GET", "/api/status", nil, nil).body
		if match(s) {
			return s
		}
		if time.Now().After(deadline) {
			a.t.Fatalf("status never showed %s: %v", what, s)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func strList(v any) []string {
	var out []string
	l, _ := v.([]any)
	for _, x := range l {
		out = append(out, str(x))
	}
	return out
}

func reasonsAre(want ...string) func(map[string]any) bool {
	return func(s map[string]any) bool {
		return slices.Equal(strList(s["pendingRestartReasons"]), want) && s["pendingRestart"] == (len(want) > 0)
	}
}

func TestHandEditHotChangeAppliesAtOnce(t *testing.T) {
	a := startTerminal(t, `{"character":{"name":"Wisp","mood":"kept"}}`, nil)
	w := dialSocket(t, a.App, "")
	handEdit(t, a.App, `{"character":{"name":"Ada","mood":"kept"},"model":{"temperature":1.2}}`)
	changed := w.waitFor(t, ofType("config-changed"))
	if got := strList(changed["paths"]); !slices.Equal(got, []string{"model.temperature", "character.name"}) {
		t.Fatalf("config-changed paths = %v", got)
	}
	st := w.waitFor(t, ofType("status"))
	if st["agentName"] != "Ada" || st["pendingRestart"] != false {
		t.Fatalf("status after a hot change: %v", st)
	}
	if got := a.do("GET", "/api/status", nil, nil).body; got["agentName"] != "Ada" {
		t.Fatalf("GET /api/status: %v", got)
	}
	if temp := *a.agentSettings().Temperature; temp != 1.2 {
		t.Fatalf("the agent still uses temperature %v", temp)
	}
	// The same content again (an editor saving without changes) says nothing: the next
	// change reported is the real edit made after it.
	handEdit(t, a.App, `{"character":{"name":"Ada","mood":"kept"},"model":{"temperature":1.2}}`)
	handEdit(t, a.App, `{"character":{"name":"Ada","mood":"kept"},"model":{"temperature":1.2}}`)
	handEdit(t, a.App, `{"character":{"name":"Ada","mood":"kept"},"model":{"temperature":1.3}}`)
	for {
		m := w.waitFor(t, func(map[string]any) bool { return true })
		if m["type"] == "status" && m["agentName"] == "Ada" {
			continue // the periodic one
		}
		if m["type"] != "config-changed" || !slices.Equal(strList(m["paths"]), []string{"model.temperature"}) {
			t.Fatalf("after unchanged saves and one edit: %v", m)
		}
		break
	}
}

func TestRestartReasonsFollowTheFile(t *testing.T) {
	a := startTerminal(t, `{}`, nil)
	w := dialSocket(t, a.App, "")
	handEdit(t, a.App, `{"features":{"shellEnabled":true},"terminal":{"maxConcurrent":4}}`)
	frame := w.waitFor(t, ofType("restart-required"))
	want := []string{"Shell access enabled", "Terminal run limit changed: 2 → 4"}
	if got := strList(frame["reasons"]); !slices.Equal(got, want) {
		t.Fatalf("restart-required reasons = %q, want %q", got, want)
	}
	a.statusWhere("both reasons", reasonsAre(want...))

	handEdit(t, a.App, `{"features":{"shellEnabled":true},"terminal":{"maxConcurrent":2}}`) // changed back
	a.statusWhere("the limit's reason gone", reasonsAre("Shell access enabled"))
	handEdit(t, a.App, `{}`)
	a.statusWhere("no reasons", reasonsAre())
	if a.svc.Load().termGate.Enabled() {
		t.Fatal("shell access turned on without a restart")
	}
}

// The owner of the listen address refuses, in the verify phase, a file that would
// expose the API without a token: the file is rejected as a whole and nothing of it
// is applied, not even its hot settings.
func TestVerifyRefusesAnExposedAPI(t *testing.T) {
	a := startTerminal(t, `{"character":{"name":"Good"}}`, nil)
	w := dialSocket(t, a.App, "")
	handEdit(t, a.App, `{"server":{"host":"0.0.0.0"},"character":{"name":"Exposed"}}`)
	frame := w.waitFor(t, ofType("config-error"))
	if msg := str(frame["message"]); !strings.Contains(msg, "without an API token") {
		t.Fatalf("config-error message %q", msg)
	}
	st := a.statusWhere("the config error", func(s map[string]any) bool { return s["configError"] != nil })
	if st["agentName"] != "Good" || st["pendingRestart"] != false {
		t.Fatalf("part of the refused file was applied: %v", st)
	}
	handEdit(t, a.App, `{"server":{"host":"0.0.0.0"},"api":{"token":"a-long-secret-token"},"character":{"name":"Both"}}`)
	a.statusWhere("the file with a token", func(s map[string]any) bool {
		return s["configError"] == nil && s["agentName"] == "Both" && s["pendingRestart"] == true
	})
}

func TestInvalidConfigKeepsTheLastGood(t *testing.T) {
	a := startTerminal(t, `{"character":{"name":"Good"}}`, nil)
	w := dialSocket(t, a.App, "")
	handEdit(t, a.App, `{"character":{"name":"Broken",}`)
	frame := w.waitFor(t, ofType("config-error"))
	if msg := str(frame["message"]); !strings.Contains(msg, "not valid JSON") || !strings.Contains(msg, a.settings.Path()) {
		t.Fatalf("config-error message %q", msg)
	}
	st := a.statusWhere("the config error", func(s map[string]any) bool { return s["configError"] != nil })
	if st["agentName"] != "Good" {
		t.Fatalf("the last good config was not kept: %v", st)
	}
	put := a.do("PUT", "/api/config", `{"character":{"bio":"x"}}`, nil)
	if put.status != http.StatusConflict || !strings.Contains(str(put.body["error"]), "fix the config file first") {
		t.Fatalf("PUT over a broken file: %d %v", put.status, put.body)
	}
	if data, _ := os.ReadFile(a.settings.Path()); !strings.Contains(string(data), "Broken") {
		t.Fatal("the broken hand edit was overwritten")
	}

	handEdit(t, a.App, `{"server":{"port":99999}}`)
	w.waitFor(t, func(m map[string]any) bool {
		return m["type"] == "config-error" && strings.Contains(str(m["message"]), "server.port must be 0-65535")
	})

	handEdit(t, a.App, `{"character":{"name":"Fixed"}}`)
	a.statusWhere("the fix", func(s map[string]any) bool { return s["configError"] == nil && s["agentName"] == "Fixed" })
}

func TestPutConfigRoundTrip(t *testing.T) {
	a := startTerminal(t, `{"character":{"name":"Wisp"},"plugins":{"kept":true}}`, nil)
	put := a.do("PUT", "/api/config", `{"character":{"name":"Grace"},"model":{"apiKey":"sk-very-secret","name":"m2"},"terminal":{"maxConcurrent":3}}`, nil)
	if put.status != 200 {
		t.Fatalf("PUT: %d %v", put.status, put.body)
	}
	got := a.do("GET", "/api/config", nil, nil)
	for name, view := range map[string]answer{"PUT": put, "GET": got} {
		cfg := view.body["config"].(map[string]any)
		if cfg["character"].(map[string]any)["name"] != "Grace" || cfg["terminal"].(map[string]any)["maxConcurrent"] != 3.0 {
			t.Errorf("%s config = %v", name, cfg)
		}
		if _, shown := cfg["model"].(map[string]any)["apiKey"]; shown {
			t.Errorf("%s shows the API key", name)
		}
		if view.body["secrets"].(map[string]any)["model.apiKey"] != true {
			t.Errorf("%s secrets = %v", name, view.body["secrets"])
		}
		if got := strList(view.body["pendingRestartReasons"]); !slices.Equal(got, []string{"Terminal run limit changed: 2 → 3"}) {
			t.Errorf("%s reasons = %v", name, got)
		}
		if view.body["path"] != a.settings.Path() || len(view.body["fields"].([]any)) < 20 {
			t.Errorf("%s path/fields = %v / %d", name, view.body["path"], len(view.body["fields"].([]any)))
		}
	}
	if st := a.do("GET", "/api/status", nil, nil).body; st["agentName"] != "Grace" || st["model"] != "m2" {
		t.Fatalf("the hot settings were not applied with the answer: %v", st)
	}
	info, err := os.Stat(a.settings.Path())
	if err != nil || info.Mode().Perm() != 0o600 {
		t.Fatalf("config file mode: %v %v", info.Mode(), err)
	}
	data, _ := os.ReadFile(a.settings.Path())
	for _, want := range []string{`"sk-very-secret"`, `"kept": true`, `"Grace"`} {
		if !strings.Contains(string(data), want) {
			t.Errorf("saved file lacks %s", want)
		}
	}
	leftovers, _ := filepath.Glob(filepath.Join(filepath.Dir(a.settings.Path()), ".wisp.json.tmp-*"))
	if len(leftovers) != 0 {
		t.Errorf("temporary files left: %v", leftovers)
	}
}

func TestPutConfigRefusals(t *testing.T) {
	a := startTerminal(t, `{}`, nil)
	cases := []struct{ body, want string }{
		{`{"nope":1}`, "unknown setting: nope"},
		{`{"server":{"host":"0.0.0.0"}}`, "server.host can only be changed in the config file"},
		{`{"terminal":{"maxDurationMs":5}}`, "terminal.maxDurationMs must be 1000-3600000, got 5"},
		{`{"features":{"shellEnabled":"yes"}}`, "features.shellEnabled must be true or false"},
	}
	for _, tc := range cases {
		got := a.do("PUT", "/api/config", tc.body, nil)
		if got.status != 400 || !strings.Contains(str(got.body["error"]), tc.want) {
			t.Errorf("PUT %s: %d %v, want 400 %q", tc.body, got.status, got.body, tc.want)
		}
	}
	if data, _ := os.ReadFile(a.settings.Path()); string(data) != "{}" {
		t.Fatalf("a refused PUT wrote the file: %s", data)
	}
}

func TestShellPermissionRouteAndRestart(t *testing.T) {
	a := startTerminal(t, `{"terminal":{"cwd":"/tmp"}}`, nil)
	w := dialSocket(t, a.App, "clientId=c1")
	on := a.do("PUT", "/api/permissions/shell", `{"enabled":true}`, nil)
	if on.status != 200 || on.body["enabled"] != true || !slices.Equal(strList(on.body["pendingRestartReasons"]), []string{"Shell access enabled"}) {
		t.Fatalf("shell on: %d %v", on.status, on.body)
	}
	if f := w.waitFor(t, ofType("restart-required")); !slices.Equal(strList(f["reasons"]), []string{"Shell access enabled"}) {
		t.Fatalf("restart-required = %v", f)
	}
	if run := a.run(map[string]any{"command": "echo hi"}, nil); run.status != 403 {
		t.Fatalf("shell ran before the restart: %d", run.status)
	}
	if bad := a.do("PUT", "/api/permissions/shell", `{}`, nil); bad.status != 400 || !strings.Contains(str(bad.body["error"]), "enabled (true or false) is required") {
		t.Fatalf("missing enabled: %d %v", bad.status, bad.body)
	}

	res := a.do("POST", "/api/agent/restart", nil, nil)
	if res.status != 200 || res.body["ok"] != true {
		t.Fatalf("restart: %d %v", res.status, res.body)
	}
	st := res.body["status"].(map[string]any)
	if st["state"] != "running" || st["pendingRestart"] != false || len(strList(st["pendingRestartReasons"])) != 0 {
		t.Fatalf("status after restart: %v", st)
	}
	if conn := res.body["connection"].(map[string]any); conn["baseURL"] != a.URL() {
		t.Fatalf("connection = %v, want %s", conn, a.URL())
	}
	// The socket stayed (who may connect did not change) and saw restarting → running.
	w.waitFor(t, func(m map[string]any) bool { return m["type"] == "status" && m["state"] == "restarting" })
	w.waitFor(t, func(m map[string]any) bool { return m["type"] == "status" && m["state"] == "running" })
	run := a.runFor("c1", "echo restarted-ok")
	if out, exit := terminalOutput(t, w, run); !strings.Contains(out, "restarted-ok") || exit["code"] != 0.0 {
		t.Fatalf("run after restart: %q %v", out, exit)
	}

	off := a.do("PUT", "/api/permissions/shell", `{"enabled":false}`, nil)
	if !slices.Equal(strList(off.body["pendingRestartReasons"]), []string{"Shell access disabled"}) {
		t.Fatalf("shell off: %v", off.body)
	}
}

func TestRestartIsOneAtATime(t *testing.T) {
	a := startTerminal(t, `{}`, nil)
	a.do("PUT", "/api/permissions/shell", `{"enabled":true}`, nil)
	entered, release := make(chan struct{}), make(chan struct{})
	a.life.restartHook = func() { close(entered); <-release }
	first := make(chan answer, 1)
	go func() { first <- a.do("POST", "/api/agent/restart", nil, nil) }()
	<-entered
	if st := a.do("GET", "/api/status", nil, nil).body; st["state"] != "restarting" || st["canRespond"] != false {
		t.Fatalf("status during a restart: %v", st)
	}
	second := a.do("POST", "/api/agent/restart", nil, nil)
	if second.status != http.StatusConflict || str(second.body["error"]) != "a restart is already in progress" {
		t.Fatalf("second restart: %d %v", second.status, second.body)
	}
	close(release)
	if got := <-first; got.status != 200 {
		t.Fatalf("first restart: %d %v", got.status, got.body)
	}
	a.statusWhere("running, reasons cleared", func(s map[string]any) bool {
		return s["state"] == "running" && s["pendingRestart"] == false
	})
	if !a.svc.Load().termGate.Enabled() {
		t.Fatal("the restart did not apply shell access")
	}
}

func freePort(t *testing.T) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

func TestRestartRebindsThePort(t *testing.T) {
	dir := t.TempDir()
	p1, p2 := freePort(t), freePort(t)
	if err := os.WriteFile(filepath.Join(dir, "wisp.json"), []byte(fmt.Sprintf(`{"server":{"port":%d}}`, p1)), 0o600); err != nil {
		t.Fatal(err)
	}
	opts := testOptions(t, dir, nil)
	opts.Port = -1 // the file decides
	a := &termApp{App: startApp(t, opts), t: t}
	t.Cleanup(func() { a.Stop() })
	w := dialSocket(t, a.App, "")

	handEdit(t, a.App, fmt.Sprintf(`{"server":{"port":%d}}`, p2))
	want := fmt.Sprintf("Server port changed: %d → %d", p1, p2)
	a.statusWhere("the port reason", reasonsAre(want))
	oldURL := a.URL()
	res := a.do("POST", "/api/agent/restart", nil, nil)
	if res.status != 200 {
		t.Fatalf("restart: %d %v", res.status, res.body)
	}
	newURL := fmt.Sprintf("http://127.0.0.1:%d", p2)
	if conn := res.body["connection"].(map[string]any); conn["baseURL"] != newURL || conn["wsURL"] != "ws://127.0.0.1:"+fmt.Sprint(p2)+"/ws" {
		t.Fatalf("connection = %v", conn)
	}
	if a.URL() != newURL {
		t.Fatalf("URL = %s", a.URL())
	}
	if st := a.do("GET", "/api/status", nil, nil).body; st["pendingRestart"] != false || st["state"] != "running" {
		t.Fatalf("status on the new port: %v", st)
	}
	// The socket is told to come back (1012), and the old port stops answering.
	for {
		if _, ok := <-w.frames; !ok {
			break
		}
	}
	var ce *websocket.CloseError
	if _, _, err := w.conn.ReadMessage(); !errors.As(err, &ce) || ce.Code != 1012 {
		t.Fatalf("socket close = %v, want 1012", err)
	}
	deadline := time.Now().Add(15 * time.Second)
	for {
		resp, err := http.Get(oldURL + "/api/health")
		if err != nil && errors.Is(err, syscall.ECONNREFUSED) {
			break
		}
		if err == nil {
			resp.Body.Close()
		}
		if time.Now().After(deadline) {
			t.Fatalf("the old port still answers: %v", err)
		}
		time.Sleep(20 * time.Millisecond)
	}
	dialSocket(t, a.App, "") // and /ws answers on the new one
}

func TestRestartOnATakenPortKeepsRunning(t *testing.T) {
	taken, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer taken.Close()
	dir := t.TempDir()
	opts := testOptions(t, dir, nil)
	opts.Port = -1
	if err := os.WriteFile(filepath.Join(dir, "wisp.json"), []byte(fmt.Sprintf(`{"server":{"port":%d}}`, freePort(t))), 0o600); err != nil {
		t.Fatal(err)
	}
	a := &termApp{App: startApp(t, opts), t: t}
	t.Cleanup(func() { a.Stop() })
	before := a.URL()
	handEdit(t, a.App, fmt.Sprintf(`{"server":{"port":%d}}`, taken.Addr().(*net.TCPAddr).Port))
	a.statusWhere("the port reason", func(s map[string]any) bool { return s["pendingRestart"] == true })
	res := a.do("POST", "/api/agent/restart", nil, nil)
	if res.status != http.StatusConflict || !strings.Contains(str(res.body["error"]), "address already in use") {
		t.Fatalf("restart onto a taken port: %d %v", res.status, res.body)
	}
	st := a.do("GET", "/api/status", nil, nil).body
	if a.URL() != before || st["state"] != "running" || st["pendingRestart"] != true {
		t.Fatalf("after a failed restart: %s %v", a.URL(), st)
	}
}

// The settings view names the token's override and never shows its value.
func TestConfigViewHidesTheToken(t *testing.T) {
	a := startTerminal(t, `{}`, map[string]string{"WISP_API_TOKEN": "tok-123"})
	bearer := map[string]string{"Authorization": "Bearer tok-123"}
	view := a.do("GET", "/api/config", nil, bearer).body
	if view["overrides"].(map[string]any)["api.token"] != "WISP_API_TOKEN" || view["secrets"].(map[string]any)["api.token"] != false {
		t.Fatalf("overrides/secrets = %v / %v", view["overrides"], view["secrets"])
	}
	if strings.Contains(fmt.Sprint(view), "tok-123") {
		t.Fatal("the token leaked into GET /api/config")
	}
}
