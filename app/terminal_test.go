package app

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/wispapp/wisp/app/wire"
	"github.com/wispapp/wisp/terminal"
)

// termApp is a running Wisp with a config file written first.
type termApp struct {
	*App
	t *testing.T
}

func startTerminal(t *testing.T, config string, env map[string]string) *termApp {
	t.Helper()
	dir := t.TempDir()
	if config != "" {
		if err := os.WriteFile(filepath.Join(dir, "wisp.json"), []byte(config), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	opts := testOptions(t, dir, env)
	opts.KeepToken = true // as `wisp serve`: shell access needs a token
	a := startApp(t, opts)
	t.Cleanup(func() { a.Stop() })
	return &termApp{App: a, t: t}
}

// ownTokenOf is the token the App made for itself ("" when a token is configured,
// or when it keeps none).
func ownTokenOf(a *App) string {
	t, _ := a.ownToken(a.svc.Load().cfg)
	return t
}

const shellOn = `{"features": {"shellEnabled": true}, "terminal": {"cwd": "/tmp"}}`

type answer struct {
	status int
	header http.Header
	body   map[string]any
}

// do sends body (a string is sent as is, anything else as JSON) with the headers,
// and the App's own token unless they carry a token ("" for none).
func (a *termApp) do(method, path string, body any, header map[string]string) answer {
	a.t.Helper()
	var rd io.Reader
	switch b := body.(type) {
	case nil:
	case string:
		rd = strings.NewReader(b)
	default:
		data, _ := json.Marshal(b)
		rd = bytes.NewReader(data)
	}
	req, _ := http.NewRequest(method, a.URL()+path, rd)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	_, bearer := header["Authorization"]
	_, key := header["X-Api-Key"]
	if own := ownTokenOf(a.App); own != "" && !bearer && !key {
		req.Header.Set("Authorization", "Bearer "+own)
	}
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		a.t.Fatal(err)
	}
	defer resp.Body.Close()
	out := answer{status: resp.StatusCode, header: resp.Header}
	data, _ := io.ReadAll(resp.Body)
	if err := json.Unmarshal(data, &out.body); err != nil {
		a.t.Fatalf("%s %s: %d %q is not JSON", method, path, resp.StatusCode, data)
	}
	return out
}

func (a *termApp) run(body map[string]any, header map[string]string) answer {
	a.t.Helper()
	return a.do("POST", "/api/terminal/run", body, header)
}

// runFor starts command for a client and returns the run id.
func (a *termApp) runFor(client, command string) string {
	a.t.Helper()
	ans := a.run(map[string]any{"command": command, "clientId": client}, nil)
	if ans.status != 200 || ans.body["ok"] != true {
		a.t.Fatalf("run %q: %d %v", command, ans.status, ans.body)
	}
	return ans.body["runId"].(string)
}

// terminalOutput collects a run's stdout from a socket until its exit event.
func terminalOutput(t *testing.T, w *wsClient, runID string) (stdout string, exit map[string]any) {
	t.Helper()
	var b strings.Builder
	for {
		m := w.waitFor(t, func(m map[string]any) bool { return m["type"] == "terminal-output" && m["runId"] == runID })
		switch m["event"] {
		case "stdout":
			b.WriteString(m["data"].(string))
		case "exit", "error":
			return b.String(), m
		}
	}
}

// The terminal's routes (tested in app/api) are built on this Wisp's settings: off
// by default, naming its config file; the tokens come from the environment, and the
// desktop window gets the terminal token.
func TestTerminalRoutesFollowTheSettings(t *testing.T) {
	off := startTerminal(t, "", nil)
	list := off.do("GET", "/api/terminal/runs", nil, nil)
	if list.body["enabled"] != false || list.body["configPath"] != off.settings.Path() || len(list.body["runs"].([]any)) != 0 {
		t.Fatalf("list %v", list.body)
	}
	const api, term = "api-secret", "term-secret"
	bearer := map[string]string{"Authorization": "Bearer " + api}
	a := startTerminal(t, shellOn, map[string]string{"WISP_API_TOKEN": api, "WISP_TERMINAL_RUN_TOKEN": term})
	both := map[string]string{"Authorization": "Bearer " + api, "X-Terminal-Token": term}
	if ans := a.run(map[string]any{"command": "true", "clientId": "tab-1"}, both); ans.status != 200 {
		t.Fatalf("with both tokens: %d %v", ans.status, ans.body)
	}
	if list := a.do("GET", "/api/terminal/runs", nil, bearer); list.body["enabled"] != true || list.body["tokenRequired"] != true {
		t.Fatalf("list %v", list.body)
	}
	if c := a.Connection(); c.TerminalToken != term {
		t.Fatalf("the desktop window would not get the terminal token: %+v", c)
	}
}

func TestTerminalOutputReachesOnlyItsClient(t *testing.T) {
	a := startTerminal(t, shellOn, nil)
	wa := dialSocket(t, a.App, "clientId=tab-a")
	wb := dialSocket(t, a.App, "clientId=tab-b")
	runA := a.runFor("tab-a", `printf '\033[31mred\033[0m\n'; echo oops >&2`)
	runB := a.runFor("tab-b", "echo bee")
	var events []string
	for {
		m := wa.waitFor(t, ofType("terminal-output"))
		if m["runId"] != runA {
			t.Fatalf("tab-a got an event of %v", m["runId"])
		}
		events = append(events, m["event"].(string)+":"+str(m["data"]))
		if m["event"] == "exit" {
			break
		}
	}
	want := []string{"start:", "stdout:\x1b[31mred\x1b[0m\r\n", "stderr:oops\n", "exit:"}
	if strings.Join(sortedMiddle(events), "|") != strings.Join(want, "|") {
		t.Fatalf("tab-a saw %q, want %q", events, want)
	}
	out, exit := terminalOutput(t, wb, runB)
	if out != "bee\r\n" || exit["code"] != 0.0 {
		t.Fatalf("tab-b: %q %v", out, exit)
	}
	// Nothing of tab-b's run reached tab-a: a ping's pong comes next.
	wa.conn.WriteJSON(map[string]string{"type": "ping"})
	if m := wa.waitFor(t, func(m map[string]any) bool { return true }); m["type"] != "pong" {
		t.Fatalf("tab-a got %v", m)
	}
}

func str(v any) string { s, _ := v.(string); return s }

// sortedMiddle orders the output events between start and exit by name: stdout and
// stderr come from different pipes, so their relative order is not fixed.
func sortedMiddle(evs []string) []string {
	if len(evs) < 3 {
		return evs
	}
	mid := append([]string{}, evs[1:len(evs)-1]...)
	for i := range mid {
		for j := i + 1; j < len(mid); j++ {
			if mid[j] > mid[i] {
				mid[i], mid[j] = mid[j], mid[i]
			}
		}
	}
	return append(append([]string{evs[0]}, mid...), evs[len(evs)-1])
}

func TestTerminalCaptureOutput(t *testing.T) {
	a := startTerminal(t, `{"features": {"shellEnabled": true}, "terminal": {"maxDurationMs": 1000}}`, nil)
	ans := a.run(map[string]any{"command": "printf 'out\\n'; printf err >&2; exit 3", "clientId": "tab-1", "captureOutput": true}, nil)
	b := ans.body
	if ans.status != 200 || b["ok"] != false || b["exitCode"] != 3.0 || b["stdout"] != "out\n" || b["stderr"] != "err" ||
		b["timedOut"] != false || b["truncated"] != false || b["maxDurationMs"] != 1000.0 || b["command"] == "" {
		t.Fatalf("%d %v", ans.status, b)
	}
	for _, k := range []string{"runId", "durationMs"} {
		if _, ok := b[k]; !ok {
			t.Fatalf("no %s in %v", k, b)
		}
	}
	big := a.run(map[string]any{"command": "head -c 200000 /dev/zero | tr '\\0' a", "clientId": "tab-1", "captureOutput": true}, nil).body
	if len(big["stdout"].(string)) != 128<<10 || big["truncated"] != true || big["ok"] != true {
		t.Fatalf("stdout of %d bytes, truncated %v", len(big["stdout"].(string)), big["truncated"])
	}
	slow := a.run(map[string]any{"command": "sleep 100", "clientId": "tab-1", "captureOutput": true}, nil).body
	if slow["timedOut"] != true || slow["exitCode"] != 124.0 || slow["ok"] != false {
		t.Fatalf("timed-out run: %v", slow)
	}
}

func TestTerminalRunsKillAndLimit(t *testing.T) {
	a := startTerminal(t, `{"features": {"shellEnabled": true}, "terminal": {"maxConcurrent": 1}}`, nil)
	w := dialSocket(t, a.App, "clientId=tab-1")
	id := a.runFor("tab-1", "echo ready; sleep 1000")
	w.waitFor(t, func(m map[string]any) bool { return m["event"] == "stdout" })
	busy := a.run(map[string]any{"command": "true", "clientId": "tab-1"}, nil)
	if busy.status != 429 || busy.header.Get("Retry-After") == "" {
		t.Fatalf("second run: %d %v", busy.status, busy.body)
	}
	got := a.do("GET", "/api/terminal/runs/"+id, nil, nil).body
	if got["status"] != "running" || got["exitCode"] != nil || !strings.Contains(str(got["scrollback"].([]any)[0].(map[string]any)["data"]), "ready") {
		t.Fatalf("run %v", got)
	}
	if ans := a.do("POST", "/api/terminal/runs/"+id+"/kill", nil, nil); ans.status != 200 {
		t.Fatalf("kill: %d %v", ans.status, ans.body)
	}
	if _, exit := terminalOutput(t, w, id); exit["code"] != 143.0 {
		t.Fatalf("exit %v", exit)
	}
	if ans := a.do("POST", "/api/terminal/runs/"+id+"/kill", nil, nil); ans.status != 409 {
		t.Fatalf("second kill: %d", ans.status)
	}
	for _, path := range []string{"/api/terminal/runs/run-0-nope00", "/api/terminal/runs/run-0-nope00/kill"} {
		method := map[bool]string{true: "POST", false: "GET"}[strings.HasSuffix(path, "kill")]
		if ans := a.do(method, path, nil, nil); ans.status != 404 {
			t.Fatalf("%s %s: %d", method, path, ans.status)
		}
	}
	ended := a.do("GET", "/api/terminal/runs/"+id, nil, nil).body
	if ended["status"] != "killed" || ended["exitCode"] != 143.0 || ended["lastSeq"] == 0.0 {
		t.Fatalf("ended run %v", ended)
	}
	a.runFor("tab-1", "true") // the slot is free again
}

func TestTerminalInteractiveOverWS(t *testing.T) {
	a := startTerminal(t, shellOn, nil)
	owner := dialSocket(t, a.App, "clientId=tab-1")
	other := dialSocket(t, a.App, "clientId=tab-2")
	id := a.runFor("tab-1", "read x; stty size; echo got:$x")
	owner.waitFor(t, func(m map[string]any) bool { return m["event"] == "start" })

	other.conn.WriteJSON(map[string]any{"type": "terminal-input", "runId": id, "data": "intruder\r"})
	if m := other.waitFor(t, ofType("error")); !strings.Contains(str(m["message"]), "only the client") {
		t.Fatalf("input from another client: %v", m)
	}
	for _, bad := range []map[string]any{
		{"type": "terminal-resize", "runId": id, "cols": 0, "rows": 10},
		{"type": "terminal-resize", "runId": id, "cols": 10, "rows": 501},
		{"type": "terminal-input", "runId": "run-0-nope00", "data": "x"},
		{"type": "terminal-input", "runId": id, "data": strings.Repeat("x", 17<<10)},
	} {
		owner.conn.WriteJSON(bad)
		owner.waitFor(t, ofType("error"))
	}
	owner.conn.WriteJSON(map[string]any{"type": "terminal-resize", "runId": id, "cols": 100, "rows": 40})
	owner.conn.WriteJSON(map[string]any{"type": "terminal-input", "runId": id, "data": "hi\r"})
	out, exit := terminalOutput(t, owner, id)
	if !strings.Contains(out, "40 100") || !strings.Contains(out, "got:hi") || exit["code"] != 0.0 {
		t.Fatalf("output %q, exit %v", out, exit)
	}
}

func TestTerminalInputNeedsTheTerminalToken(t *testing.T) {
	const api, term = "api-secret", "term-secret"
	a := startTerminal(t, shellOn, map[string]string{"WISP_API_TOKEN": api, "WISP_TERMINAL_RUN_TOKEN": term})
	u := strings.Replace(a.URL(), "http", "ws", 1) + "/ws?clientId=tab-1"
	w := dialSocketHeader(t, u, http.Header{"Authorization": {"Bearer " + api}})
	ans := a.run(map[string]any{"command": "read x; echo got:$x", "clientId": "tab-1"},
		map[string]string{"Authorization": "Bearer " + api, "X-Terminal-Token": term})
	id := ans.body["runId"].(string)
	w.conn.WriteJSON(map[string]any{"type": "terminal-input", "runId": id, "data": "no\r"})
	if m := w.waitFor(t, ofType("error")); !strings.Contains(str(m["message"]), "terminal token") {
		t.Fatalf("input without the terminal token: %v", m)
	}
	w.conn.WriteJSON(map[string]any{"type": "terminal-input", "runId": id, "data": "yes\r", "terminalToken": term})
	if out, _ := terminalOutput(t, w, id); !strings.Contains(out, "got:yes") {
		t.Fatalf("output %q", out)
	}
}

func TestStopEndsTerminalRuns(t *testing.T) {
	a := startTerminal(t, shellOn, nil)
	w := dialSocket(t, a.App, "clientId=tab-1")
	id := a.runFor("tab-1", "sleep 1000")
	w.waitFor(t, func(m map[string]any) bool { return m["event"] == "start" })
	done := make(chan struct{})
	go func() {
		defer close(done)
		a.Stop()
	}()
	if _, exit := terminalOutput(t, w, id); exit["code"] != 143.0 {
		t.Fatalf("exit %v", exit)
	}
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("Stop hangs")
	}
}

// The terminal's event kinds reach the wire as the catalog's terminal events.
func TestTerminalKindsAreWireEvents(t *testing.T) {
	for kind, want := range map[terminal.Kind]wire.TerminalEvent{
		terminal.KindStart: wire.TerminalStart, terminal.KindStdout: wire.TerminalStdout,
		terminal.KindStderr: wire.TerminalStderr, terminal.KindTimeout: wire.TerminalTimeout,
		terminal.KindExit: wire.TerminalExit, terminal.KindError: wire.TerminalError,
	} {
		if wire.TerminalEvent(kind) != want {
			t.Errorf("terminal kind %q is sent as %q", kind, wire.TerminalEvent(kind))
		}
	}
}
