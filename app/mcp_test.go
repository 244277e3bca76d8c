package app

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/wispapp/wisp/runtime/llm"
	"github.com/wispapp/wisp/runtime/llm/llmtest"
)

type sumArgs struct {
	A int `json:"a"`
	B int `json:"b"`
}

// calcServer is an in-process MCP server over Streamable HTTP with one tool, add.
func calcServer(t *testing.T) string {
	t.Helper()
	s := sdk.NewServer(&sdk.Implementation{Name: "calc", Version: "1"}, nil)
	sdk.AddTool(s, &sdk.Tool{Name: "add", Description: "Adds two numbers", Annotations: &sdk.ToolAnnotations{ReadOnlyHint: true}},
		func(_ context.Context, _ *sdk.CallToolRequest, in sumArgs) (*sdk.CallToolResult, any, error) {
			return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: fmt.Sprint(in.A + in.B)}}}, nil, nil
		})
	srv := httptest.NewServer(sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return s }, nil))
	t.Cleanup(func() {
		srv.Close() // (a session Wisp left open would hold Close: it ends its own when it stops)
		// A session whose handshake a stop cut short is left to the server to end.
		for ss := range s.Sessions() {
			ss.Close()
		}
	})
	return srv.URL
}

// slowServer has one tool, wait, that says on seen when it starts and when it is
// cancelled, and otherwise never answers.
func slowServer(t *testing.T, seen chan<- string) string {
	t.Helper()
	s := sdk.NewServer(&sdk.Implementation{Name: "slow", Version: "1"}, nil)
	sdk.AddTool(s, &sdk.Tool{Name: "wait", Description: "Waits"},
		func(ctx context.Context, _ *sdk.CallToolRequest, _ struct{}) (*sdk.CallToolResult, any, error) {
			seen <- "started"
			<-ctx.Done()
			seen <- "cancelled"
			return nil, nil, ctx.Err()
		})
	srv := httptest.NewServer(sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return s }, nil))
	t.Cleanup(srv.Close)
	return srv.URL
}

// startMCP is a Wisp whose wisp.json is file, answered by the fake model, called
// with its API token.
func startMCP(t *testing.T, dir, file string, fake *llmtest.Server) *shellApp {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, "wisp.json"), []byte(file), 0o600); err != nil {
		t.Fatal(err)
	}
	opts := testOptions(t, dir, map[string]string{
		"WISP_PROVIDER": "openai", "WISP_BASE_URL": fake.OpenAIURL(), "WISP_MODEL": "fake", "OPENAI_API_KEY": "k",
		"WISP_API_TOKEN": shellToken,
	})
	opts.NoTitles = true
	a := startApp(t, opts)
	t.Cleanup(func() { a.Stop() })
	return &shellApp{&chatApp{App: a, t: t, fake: fake, token: shellToken}}
}

// dialWS connects to /ws with the API token.
func (s *shellApp) dialWS() *wsClient {
	return dialSocketHeader(s.t, strings.Replace(s.URL(), "http", "ws", 1)+"/ws", http.Header{"Authorization": {"Bearer " + shellToken}})
}

// mcpState is a server's status in an mcp-servers frame or GET answer.
func mcpState(servers any, name string) string {
	list, _ := servers.([]any)
	for _, s := range list {
		if m, _ := s.(map[string]any); m["name"] == name {
			st, _ := m["status"].(string)
			return st
		}
	}
	return ""
}

// waitMCP waits until the server named has the status, as /ws says (or GET, if it
// had it before the socket listened).
func (s *shellApp) waitMCP(ws *wsClient, name, status string) {
	s.t.Helper()
	if _, out := s.do("GET", "/api/mcp/servers", nil); mcpState(out["servers"], name) == status {
		s.waitOffered(name)
		return
	}
	ws.waitFor(s.t, func(m map[string]any) bool {
		return m["type"] == "mcp-servers" && mcpState(m["servers"], name) == status
	})
}

// waitOffered waits until the agent is offered every tool the manager lists for the
// server. GET /api/mcp/servers reads the manager, which shows a server running a
// moment before its OnChange offers the tools (the mcp-servers frame comes after).
func (s *shellApp) waitOffered(name string) {
	s.t.Helper()
	deadline := time.Now().Add(15 * time.Second) // a deadline, not a speed claim
	for {
		offered := map[string]bool{}
		for _, t := range s.App.actions.Tools() {
			offered[t.Name] = true
		}
		missing := ""
		for _, t := range s.App.core.mcp.Tools() {
			if t.Server == name && !offered[t.Action] {
				missing = t.Action
			}
		}
		if missing == "" {
			return
		}
		if time.Now().After(deadline) {
			s.t.Fatalf("the tool %s of %s is never offered", missing, name)
		}
		runtime.Gosched()
	}
}

// lastToolResult is what the model got back for its last tool call.
func lastToolResult(t *testing.T, fake *llmtest.Server) string {
	t.Helper()
	reqs := fake.Requests()
	msgs := reqs[len(reqs)-1].Messages
	for i := len(msgs) - 1; i >= 0; i-- {
		if msgs[i].Role == llm.RoleTool {
			return msgs[i].Text
		}
	}
	t.Fatalf("no tool result in the last request: %+v", msgs)
	return ""
}

// TestMCPToolAsksThenRuns: the model calls an MCP tool, the run pauses with an mcp
// approval naming server, tool and arguments; "always" runs it, the result reaches
// the model, and the next call of that tool runs without asking.
func TestMCPToolAsksThenRuns(t *testing.T) {
	url := calcServer(t)
	fake := llmtest.New()
	t.Cleanup(fake.Close)
	fake.Script(
		llmtest.Turn{ToolCalls: []llm.ToolCall{llmtest.Call("call_1", "calc__add", map[string]int{"a": 2, "b": 3})}},
		llmtest.Turn{Text: []string{"It is 5."}},
		llmtest.Turn{ToolCalls: []llm.ToolCall{llmtest.Call("call_2", "calc__add", map[string]int{"a": 1, "b": 1})}},
		llmtest.Turn{Text: []string{"It is 2."}},
	)
	a := startMCP(t, t.TempDir(), `{"mcpServers": {"calc": {"url": "`+url+`"}}}`, fake)
	ws := a.dialWS()
	a.waitMCP(ws, "calc", "running")

	conv := a.conversation()
	paused, st := a.send(conv, "add 2 and 3", "run_paused")
	ap, _ := paused["approval"].(map[string]any)
	args, _ := json.Marshal(ap["arguments"])
	if ap["kind"] != "mcp" || ap["server"] != "calc" || ap["tool"] != "add" || string(args) != `{"a":2,"b":3}` ||
		ap["toolDescription"] != "Adds two numbers" {
		t.Fatalf("approval = %v", ap)
	}
	if ann, _ := ap["annotations"].(map[string]any); ann["readOnlyHint"] != true {
		t.Errorf("annotations = %v", ap["annotations"])
	}
	code, out := a.do("POST", "/api/approvals/"+ap["id"].(string), map[string]any{"decision": "approve_always"})
	if code != http.StatusOK {
		t.Fatalf("decide: %d %v", code, out)
	}
	frames := st.all(t)
	if last := frames[len(frames)-1]; last.typ() != "done" || !strings.Contains(last.str("fullText"), "It is 5.") {
		t.Fatalf("last frame %v", last.Data)
	}
	if got := lastToolResult(t, fake); got != "5" {
		t.Errorf("the model got %q", got)
	}
	_, grants := a.do("GET", "/api/grants", nil)
	list, _ := grants["grants"].([]any)
	if len(list) != 1 || list[0].(map[string]any)["kind"] != "mcp" || list[0].(map[string]any)["base"] != "calc.add" {
		t.Fatalf("grants = %v", grants)
	}

	// Granted: the next call runs without a pause.
	for _, f := range a.streamQuery(conv, "and 1 and 1", "dialect=delta").all(t) {
		if f.typ() == "run_paused" {
			t.Fatal("a granted tool asked again")
		}
	}
	if got := lastToolResult(t, fake); got != "2" {
		t.Errorf("the model got %q", got)
	}
}

// TestMCPServersChangeLive: a server added to wisp.json by hand offers its tools to
// the next turn, one added through the API too; the API never shows header values;
// removing a server takes its tools away; a server that cannot start is failed with
// its stderr and Wisp goes on.
func TestMCPServersChangeLive(t *testing.T) {
	url := calcServer(t)
	fake := llmtest.New()
	t.Cleanup(fake.Close)
	dir := t.TempDir()
	a := startMCP(t, dir, `{"mcpServers": {"broken": {"command": "/bin/sh", "args": ["-c", "echo no config >&2; exit 2"]}}}`, fake)
	ws := a.dialWS()
	a.waitMCP(ws, "broken", "failed")
	_, out := a.do("GET", "/api/mcp/servers", nil)
	broken := out["servers"].([]any)[0].(map[string]any)
	if !strings.Contains(broken["lastError"].(string), "exit status 2") || !slices.Contains(anyStrings(broken["stderr"]), "no config") {
		t.Errorf("broken = %v", broken)
	}
	tools := func() []string {
		a.streamQuery(a.conversation(), "hi", "dialect=delta").all(t)
		reqs := fake.Requests()
		return reqs[len(reqs)-1].Tools
	}

	// By hand: the watcher applies it.
	file := `{"mcpServers": {"calc": {"url": "` + url + `", "headers": {"Authorization": "Bearer s3cret"}}}}`
	if err := os.WriteFile(filepath.Join(dir, "wisp.json"), []byte(file), 0o600); err != nil {
		t.Fatal(err)
	}
	a.waitMCP(ws, "calc", "running")
	if got := tools(); !slices.Contains(got, "calc__add") {
		t.Fatalf("tools = %v", got)
	}
	for _, path := range []string{"/api/config", "/api/mcp/servers"} {
		var raw json.RawMessage
		a.call("GET", path, nil, &raw)
		if strings.Contains(string(raw), "s3cret") || !strings.Contains(string(raw), "Authorization") {
			t.Errorf("%s shows a header value, or not its name: %s", path, raw)
		}
	}
	if code, out := a.do("PUT", "/api/config", map[string]any{"mcpServers": map[string]any{}}); code != http.StatusBadRequest ||
		!strings.Contains(fmt.Sprint(out["error"]), "/api/mcp/servers") {
		t.Errorf("PUT /api/config with mcpServers: %d %v", code, out)
	}

	// Through the API: null keeps a secret, a name left out is removed.
	code, out := a.do("PUT", "/api/mcp/servers/calc", map[string]any{"url": url, "headers": map[string]any{"Authorization": nil}})
	if code != http.StatusOK {
		t.Fatalf("PUT: %d %v", code, out)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "wisp.json")); !strings.Contains(string(b), "Bearer s3cret") {
		t.Errorf("the kept header is gone from the file: %s", b)
	}
	if code, out := a.do("PUT", "/api/mcp/servers/other", map[string]any{"url": url, "headers": map[string]any{"X": nil}}); code != http.StatusBadRequest {
		t.Errorf("a null for a header nobody set: %d %v", code, out)
	}
	if code, out := a.do("PUT", "/api/mcp/servers/both", map[string]any{"url": url, "command": "x"}); code != http.StatusBadRequest ||
		!strings.Contains(fmt.Sprint(out["error"]), "not both") {
		t.Errorf("command and url: %d %v", code, out)
	}
	if code, out := a.do("PUT", "/api/mcp/servers/calc2", map[string]any{"url": url}); code != http.StatusCreated {
		t.Fatalf("PUT new: %d %v", code, out)
	}
	a.waitMCP(ws, "calc2", "running")
	if got := tools(); !slices.Contains(got, "calc2__add") {
		t.Fatalf("tools = %v", got)
	}
	if code, _ := a.do("POST", "/api/mcp/servers/calc2/restart", nil); code != http.StatusAccepted {
		t.Errorf("restart: %d", code)
	}
	a.waitMCP(ws, "calc2", "running")
	if code, _ := a.do("POST", "/api/mcp/servers/nobody/restart", nil); code != http.StatusNotFound {
		t.Errorf("restart of nobody: %d", code)
	}

	// Removed: its tools are gone from the next turn.
	if code := a.call("DELETE", "/api/mcp/servers/calc2", nil, nil); code != http.StatusNoContent {
		t.Fatalf("DELETE: %d", code)
	}
	if code, _ := a.do("DELETE", "/api/mcp/servers/calc2", nil); code != http.StatusNotFound {
		t.Errorf("DELETE twice: %d", code)
	}
	if got := tools(); slices.Contains(got, "calc2__add") || !slices.Contains(got, "calc__add") {
		t.Fatalf("tools after removal = %v", got)
	}
}

func anyStrings(v any) []string {
	var out []string
	list, _ := v.([]any)
	for _, x := range list {
		s, _ := x.(string)
		out = append(out, s)
	}
	return out
}

// TestMCPStopCancelsTheCall: Stop while a tool runs ends the run, and the server
// hears the cancel.
func TestMCPStopCancelsTheCall(t *testing.T) {
	seen := make(chan string, 2)
	url := slowServer(t, seen)
	fake := llmtest.New()
	t.Cleanup(fake.Close)
	fake.Script(llmtest.Turn{ToolCalls: []llm.ToolCall{llmtest.Call("call_w", "slow__wait", map[string]any{})}})
	a := startMCP(t, t.TempDir(), `{"mcpServers": {"slow": {"url": "`+url+`"}}}`, fake)
	ws := a.dialWS()
	a.waitMCP(ws, "slow", "running")
	conv := a.conversation()
	paused, st := a.send(conv, "wait", "run_paused")
	if code, out := a.do("POST", "/api/approvals/"+paused["approvalId"].(string), map[string]any{"decision": "approve"}); code != http.StatusOK {
		t.Fatalf("decide: %d %v", code, out)
	}
	if got := <-seen; got != "started" {
		t.Fatal(got)
	}
	_, snap := a.do("GET", "/api/conversations/"+conv+"/snapshot", nil)
	runID := snap["activeRun"].(map[string]any)["id"].(string)
	if code, out := a.do("POST", "/api/runs/"+runID+"/cancel", nil); code != http.StatusOK {
		t.Fatalf("stop: %d %v", code, out)
	}
	if got := <-seen; got != "cancelled" {
		t.Errorf("the server saw %q, not the cancel", got)
	}
	st.all(t)
	if status := a.runStatus(runID); status != "interrupted" {
		t.Errorf("run status %s", status)
	}
}

// startWithin starts a Wisp and fails the test if Start has not returned in time
// (a Start that deadlocks would otherwise hang the test binary).
func startWithin(t *testing.T, opts Options) *App {
	t.Helper()
	a, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	started := make(chan error, 1)
	go func() { started <- a.Start(context.Background()) }()
	select {
	case err := <-started:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("Start did not return within 30 s")
	}
	t.Cleanup(func() { a.Stop() })
	return a
}

// TestDisabledMCPServer: docs/mcp.md's disabled server neither holds Wisp's start
// nor the save that turns a server off, nor any settings change after it.
func TestDisabledMCPServer(t *testing.T) {
	fake := llmtest.New()
	t.Cleanup(fake.Close)
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "wisp.json"), []byte(`{"mcpServers": {"old": {"command": "old-server", "disabled": true}}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	opts := testOptions(t, dir, map[string]string{"WISP_API_TOKEN": shellToken})
	a := &shellApp{&chatApp{App: startWithin(t, opts), t: t, fake: fake, token: shellToken}}
	_, out := a.do("GET", "/api/mcp/servers", nil)
	if got := mcpState(out["servers"], "old"); got != "disabled" {
		t.Fatalf("old is %q: %v", got, out)
	}
	answers := make(chan string, 1)
	go func() {
		code, out := a.do("PUT", "/api/mcp/servers/new", map[string]any{"command": "new-server", "disabled": true})
		code2, out2 := a.do("PUT", "/api/config", map[string]any{"ui": map[string]any{"theme": "dark"}})
		answers <- fmt.Sprint(code, out, code2, out2)
	}()
	select {
	case got := <-answers:
		if !strings.HasPrefix(got, "201 ") || !strings.Contains(got, " 200 ") {
			t.Errorf("answers: %s", got)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("saving a disabled server, then the settings, did not answer within 30 s")
	}
	_, out = a.do("GET", "/api/mcp/servers", nil)
	if got := mcpState(out["servers"], "new"); got != "disabled" {
		t.Errorf("new is %q: %v", got, out)
	}
}

// TestConcurrentMCPRestarts: a double-clicked Restart and two Settings tabs saving
// at once (12 clients) all get an answer that is not a 500, and Wisp lives on with
// the server running.
func TestConcurrentMCPRestarts(t *testing.T) {
	url := calcServer(t)
	fake := llmtest.New()
	t.Cleanup(fake.Close)
	a := startMCP(t, t.TempDir(), `{"mcpServers": {"calc": {"url": "`+url+`"}}}`, fake)
	ws := a.dialWS()
	a.waitMCP(ws, "calc", "running")
	var wg sync.WaitGroup
	codes := make(chan string, 48)
	for i := range 12 {
		wg.Go(func() {
			for j := range 4 {
				var code int
				var out map[string]any
				if (i+j)%2 == 0 {
					code, out = a.do("POST", "/api/mcp/servers/calc/restart", nil)
				} else {
					code, out = a.do("PUT", "/api/mcp/servers/calc", map[string]any{"url": url, "disabled": j%3 == 0})
				}
				if code >= 500 || code == 0 {
					codes <- fmt.Sprint(code, out)
				}
			}
		})
	}
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(60 * time.Second):
		t.Fatal("48 restarts and saves did not all answer within 60 s")
	}
	close(codes)
	for c := range codes {
		t.Errorf("an answer: %s", c)
	}
	if code, out := a.do("PUT", "/api/mcp/servers/calc", map[string]any{"url": url}); code != http.StatusOK {
		t.Fatalf("the last save: %d %v", code, out)
	}
	a.waitMCP(ws, "calc", "running")
	if code, _ := a.do("GET", "/api/status", nil); code != http.StatusOK {
		t.Errorf("status after the storm: %d", code)
	}
}
