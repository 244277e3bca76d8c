package app

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/wispapp/wisp/loginpath"
	"github.com/wispapp/wisp/runtime/llm/llmtest"
	"github.com/wispapp/wisp/terminal"
)

// The login shell's PATH reaches the MCP servers and the agent's shell: a server
// whose program is only there is started (it says so on stderr, then fails), one
// whose program is nowhere fails with an error naming the PATH searched and whence
// it came, and a terminal run finds the program and gets that PATH.
func TestLoginPATHReachesServersAndRuns(t *testing.T) {
	bin := t.TempDir()
	program := "#!/bin/sh\necho started from the login PATH >&2\nexit 4\n"
	if err := os.WriteFile(filepath.Join(bin, "wisp-login-only"), []byte(program), 0o755); err != nil {
		t.Fatal(err)
	}
	login := bin + ":/usr/bin:/bin"
	dir := t.TempDir()
	file := `{"mcpServers": {"only": {"command": "wisp-login-only"}, "missing": {"command": "wisp-no-such-program"}}}`
	if err := os.WriteFile(filepath.Join(dir, "wisp.json"), []byte(file), 0o600); err != nil {
		t.Fatal(err)
	}
	opts := testOptions(t, dir, map[string]string{"WISP_API_TOKEN": shellToken})
	opts.LoginPATH = func() loginpath.Result { return loginpath.Result{PATH: login, From: "login shell /bin/fake"} }
	fake := llmtest.New()
	t.Cleanup(fake.Close)
	a := &shellApp{&chatApp{App: startApp(t, opts), t: t, fake: fake, token: shellToken}}
	t.Cleanup(func() { a.Stop() })
	ws := a.dialWS()
	a.waitMCP(ws, "only", "failed")
	a.waitMCP(ws, "missing", "failed")
	_, out := a.do("GET", "/api/mcp/servers", nil)
	servers := map[string]map[string]any{}
	for _, s := range out["servers"].([]any) {
		m := s.(map[string]any)
		servers[m["name"].(string)] = m
	}
	if only := servers["only"]; !strings.Contains(only["lastError"].(string), "exit status 4") ||
		!slices.Contains(anyStrings(only["stderr"]), "started from the login PATH") {
		t.Errorf("only = %v", only)
	}
	want := `command "wisp-no-such-program" not found in PATH (login shell /bin/fake): ` + login
	if got := servers["missing"]["lastError"]; got != want {
		t.Errorf("missing: lastError %q, want %q", got, want)
	}

	run, err := a.svc.Load().term.Start(terminal.Spec{Command: `wisp-login-only; printf '%s\n' "$PATH"`, Capture: true})
	if err != nil {
		t.Fatal(err)
	}
	select {
	case <-run.Done():
	case <-time.After(30 * time.Second): // a bound, not a speed claim
		t.Fatal("the run did not end")
	}
	if res := run.Result(); res.Stdout != login+"\n" || res.Stderr != "started from the login PATH\n" {
		t.Errorf("run: %+v", res)
	}
}
