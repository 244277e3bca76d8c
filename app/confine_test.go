package app

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/wispapp/wisp/confine"
	"github.com/wispapp/wisp/runtime/llm"
	"github.com/wispapp/wisp/runtime/llm/llmtest"
	"github.com/wispapp/wisp/terminal"
)

// confinedApp is a Wisp as `wisp serve` runs it for a user whose home is home: the
// state folder where it goes by default, its token kept there, shell access on, and
// the model's keys in its environment.
type confinedApp struct {
	*termApp
	home, state string
}

const modelKey = "sk-ant-confine-test-key"

func startConfined(t *testing.T, mode confine.Mode) *confinedApp { return startConfinedOn(t, mode, 0) }

// startConfinedOn is startConfined with server.port in the config file (0: any free port).
func startConfinedOn(t *testing.T, mode confine.Mode, port int) *confinedApp {
	t.Helper()
	home, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	state := filepath.Join(home, ".local", "state", "wisp")
	for _, d := range []string{state, filepath.Join(home, "src")} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	config := confinedConfig(home, port)
	if err := os.WriteFile(filepath.Join(state, "wisp.json"), []byte(config), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(home, "notes.txt"), []byte("my notes"), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("HOME", home)
	t.Setenv("ANTHROPIC_API_KEY", modelKey)
	t.Setenv("WISP_TERMINAL_RUN_TOKEN", modelKey+"-terminal")
	opts := testOptions(t, state, map[string]string{"HOME": home})
	opts.KeepToken = true
	opts.Confine = mode
	if port != 0 {
		opts.Port = -1 // the file decides
	}
	a := startApp(t, opts)
	t.Cleanup(func() { a.Stop() })
	return &confinedApp{termApp: &termApp{App: a, t: t}, home: home, state: state}
}

func confinedConfig(home string, port int) string {
	return `{"features": {"shellEnabled": true}, "terminal": {"cwd": "` + home + `"}, "server": {"port": ` + strconv.Itoa(port) + `}}`
}

// sh runs command in the terminal as the agent (owner "") or a user's panel, and
// says what it printed on both streams and how it exited.
func (c *confinedApp) sh(owner, command string) (string, int) {
	c.t.Helper()
	r, err := c.svc.Load().term.Start(terminal.Spec{Command: command, Owner: owner, Capture: true})
	if err != nil {
		c.t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	res, err := r.Wait(ctx)
	if err != nil {
		c.t.Fatalf("%q: %v", command, err)
	}
	return res.Stdout + res.Stderr + res.Error, res.ExitCode
}

const agent, panel = "", "tab-1"

// The attack of the issue, in every form: an agent's command cannot read the token,
// the config file or the database, cannot change the config file, cannot reach
// Wisp's port and sees no secret; the same commands from the user's own panel work.
func TestAgentCommandsAreConfined(t *testing.T) {
	c := startConfined(t, confine.Auto)
	if level, reason := c.confinement(); level != "full" {
		t.Fatalf("confinement is %s on this kernel (%s): these tests need Landlock ABI 4 (Linux 6.7 or later)", level, reason)
	}
	token := ownTokenOf(c.App)
	port := strconv.Itoa(c.Port())
	for _, cmd := range []string{
		"cat " + c.state + "/api-token",
		"cat " + c.state + "/wisp.json",
		"head -c 16 " + c.state + "/wisp.db",
		"sed -i 's/shellEnabled/x/' " + c.state + "/wisp.json",
		"exec 3<>/dev/tcp/127.0.0.1/" + port,
	} {
		if out, code := c.sh(agent, cmd); code == 0 || !strings.Contains(out, "Permission denied") {
			t.Errorf("agent %q: exit %d, %q", cmd, code, out)
		}
	}
	if out, code := c.sh(agent, "curl -sS -H 'Authorization: Bearer "+token+"' http://127.0.0.1:"+port+"/api/status"); code == 0 {
		t.Errorf("agent curl reached Wisp: %q", out)
	}
	if out, _ := c.sh(agent, "env; cat /proc/$PPID/environ"); strings.Contains(out, modelKey) || strings.Contains(out, token) {
		t.Errorf("the agent sees a secret: %q", out)
	}
	if out, code := c.sh(panel, "cat "+c.state+"/api-token && exec 3<>/dev/tcp/127.0.0.1/"+port); code != 0 || strings.TrimSpace(out) != token {
		t.Errorf("panel: exit %d, %q", code, out)
	}
	if out, _ := c.sh(panel, "env"); strings.Contains(out, modelKey) {
		t.Errorf("the user's panel sees the model key: %q", out)
	}
	if b, err := os.ReadFile(filepath.Join(c.state, "wisp.json")); err != nil || !strings.Contains(string(b), "shellEnabled") {
		t.Errorf("wisp.json is now %q, %v", b, err)
	}
}

// The home folder above the state folder: both read it and work in its folders, only
// the user's panel adds to it (a right to create there would reach the state
// folder's place too).
func TestPanelRunsKeepTheirHome(t *testing.T) {
	c := startConfined(t, confine.Auto)
	if level, reason := c.confinement(); level != "full" {
		t.Fatalf("confinement is %s on this kernel (%s): these tests need Landlock ABI 4 (Linux 6.7 or later)", level, reason)
	}
	for _, owner := range []string{agent, panel} {
		if out, code := c.sh(owner, "cat ~/notes.txt && mkdir -p ~/src/new && touch ~/src/new/file"); code != 0 || !strings.HasPrefix(out, "my notes") {
			t.Errorf("owner %q: exit %d, %q", owner, code, out)
		}
	}
	if out, code := c.sh(panel, "touch ~/made-by-me"); code != 0 {
		t.Errorf("panel: exit %d, %q", code, out)
	}
	if out, code := c.sh(agent, "touch ~/made-by-agent"); code == 0 {
		t.Errorf("agent made an entry in the home folder: %q", out)
	}
}

// The real RUN_SHELL path: approved, the command runs confined and the model reads
// the refusal, not the config file.
func TestRunShellIsConfined(t *testing.T) {
	dir := t.TempDir()
	fake := llmtest.New()
	t.Cleanup(fake.Close)
	fake.Script(
		llmtest.Turn{ToolCalls: []llm.ToolCall{llmtest.Call("call_sh", "RUN_SHELL",
			map[string]string{"command": "cat " + filepath.Join(dir, "wisp.json"), "reason": "peek"})}},
		llmtest.Turn{Text: []string{"Done."}},
	)
	a := startShell(t, dir, fake)
	if level, reason := a.confinement(); level != "full" {
		t.Fatalf("confinement is %s on this kernel (%s): these tests need Landlock ABI 4 (Linux 6.7 or later)", level, reason)
	}
	paused, st := a.send(a.conversation(), "peek at the config", "run_paused")
	if code, out := a.do("POST", "/api/approvals/"+paused["approvalId"].(string), map[string]any{"decision": "approve"}); code != http.StatusOK {
		t.Fatalf("approve: %d %v", code, out)
	}
	st.all(t)
	if got := lastToolResult(t, fake); !strings.Contains(got, "Permission denied") || strings.Contains(got, "shellEnabled") {
		t.Errorf("the model got %q", got)
	}
}

// An MCP server that runs a program starts confined: this one tries to read the token
// and says on stderr what it got.
func TestStdioMCPServerIsConfined(t *testing.T) {
	dir := t.TempDir()
	server := `{"command": "/bin/sh", "args": ["-c", "cat ` + filepath.Join(dir, "wisp.json") + `; exit 3"]}`
	fake := llmtest.New()
	t.Cleanup(fake.Close)
	a := startMCP(t, dir, `{"mcpServers": {"peek": `+server+`}}`, fake)
	if level, reason := a.confinement(); level != "full" {
		t.Fatalf("confinement is %s on this kernel (%s): these tests need Landlock ABI 4 (Linux 6.7 or later)", level, reason)
	}
	ws := a.dialWS()
	a.waitMCP(ws, "peek", "failed")
	_, out := a.do("GET", "/api/mcp/servers", nil)
	text, _ := json.Marshal(out)
	if !strings.Contains(string(text), "Permission denied") || strings.Contains(string(text), "mcpServers") {
		t.Errorf("servers %s", text)
	}
}

// Forced fallbacks, as on kernels without Landlock or without its network rules:
// GET /api/status says so, with the reason, and "none" means unconfined.
func TestConfinementFallback(t *testing.T) {
	for _, tc := range []struct {
		mode         confine.Mode
		level, words string
	}{
		{confine.Off, "none", "turned off"},
		{confine.Paths, "partial", "Wisp's port"},
	} {
		c := startConfined(t, tc.mode)
		ans := c.do("GET", "/api/status", nil, nil)
		if ans.body["confinement"] != tc.level || !strings.Contains(ans.body["confinementReason"].(string), tc.words) {
			t.Errorf("mode %q: status %v", tc.mode, ans.body)
		}
		if tc.mode == confine.Off {
			if out, code := c.sh(agent, "cat "+c.state+"/api-token"); code != 0 || strings.TrimSpace(out) != ownTokenOf(c.App) {
				t.Errorf("unconfined agent: exit %d, %q", code, out)
			}
		}
	}
}

// A restart that moves Wisp to another port confines the agent's commands against
// the new one.
func TestRestartMovesTheDeniedPort(t *testing.T) {
	c := startConfinedOn(t, confine.Auto, freePort(t))
	if level, reason := c.confinement(); level != "full" {
		t.Fatalf("confinement is %s on this kernel (%s): these tests need Landlock ABI 4 (Linux 6.7 or later)", level, reason)
	}
	moved := freePort(t)
	handEdit(t, c.App, confinedConfig(c.home, moved))
	c.statusWhere("the port reason", func(m map[string]any) bool { return m["pendingRestart"] == true })
	if res := c.do("POST", "/api/agent/restart", nil, nil); res.status != http.StatusOK {
		t.Fatalf("restart: %d %v", res.status, res.body)
	}
	if c.Port() != moved {
		t.Fatalf("Wisp is on %d, not %d", c.Port(), moved)
	}
	cmd := "exec 3<>/dev/tcp/127.0.0.1/" + strconv.Itoa(moved)
	if out, code := c.sh(agent, cmd); code == 0 || !strings.Contains(out, "Permission denied") {
		t.Errorf("agent %q after the restart: exit %d, %q", cmd, code, out)
	}
	if out, code := c.sh(panel, cmd); code != 0 {
		t.Errorf("panel %q: exit %d, %q", cmd, code, out)
	}
}

// Without full confinement standing grants are off: a command a grant covers asks,
// and the card says why; with it, the grant holds.
func TestGrantsOffUnlessConfined(t *testing.T) {
	for _, tc := range []struct {
		mode confine.Mode
		asks bool
	}{{confine.Off, true}, {confine.Paths, true}, {confine.Auto, false}} {
		fake := llmtest.New()
		t.Cleanup(fake.Close)
		fake.Script(llmtest.Turn{ToolCalls: []llm.ToolCall{llmtest.Call("", "RUN_SHELL", map[string]string{"command": "printf hi", "reason": "hi"})}},
			llmtest.Turn{Text: []string{"Done."}})
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "wisp.json"), []byte(shellOn), 0o600); err != nil {
			t.Fatal(err)
		}
		opts := testOptions(t, dir, map[string]string{"WISP_PROVIDER": "openai", "WISP_BASE_URL": fake.OpenAIURL(),
			"WISP_MODEL": "fake", "OPENAI_API_KEY": "k", "WISP_API_TOKEN": shellToken})
		opts.NoTitles, opts.Confine = true, tc.mode
		a := &shellApp{&chatApp{App: startApp(t, opts), t: t, fake: fake, token: shellToken}}
		t.Cleanup(func() { a.Stop() })
		if err := a.core.store.AddGrants(context.Background(), "shell", []string{"printf"}, time.Now()); err != nil {
			t.Fatal(err)
		}
		asked := false
		st := a.streamQuery(a.conversation(), "say hi", "dialect=delta")
		for {
			f, ok := st.next(t)
			if !ok {
				break
			}
			if f.typ() != "run_paused" {
				continue
			}
			asked = true
			ap, _ := f.Data["approval"].(map[string]any)
			why := fmt.Sprint(ap["alwaysAsk"])
			if !strings.Contains(why, "standing grants are off") || fmt.Sprint(ap["grantable"]) != "[]" {
				t.Errorf("mode %q: the card says %v", tc.mode, ap)
			}
			if code, out := a.do("POST", "/api/approvals/"+f.str("approvalId"), map[string]any{"decision": "deny"}); code != http.StatusOK {
				t.Fatalf("deny: %d %v", code, out)
			}
		}
		if asked != tc.asks {
			t.Errorf("mode %q: asked %v, want %v", tc.mode, asked, tc.asks)
		}
	}
}
