package app

import (
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/wispapp/wisp/runtime/llm"
	"github.com/wispapp/wisp/runtime/llm/llmtest"
)

const shellToken = "shell-test-token-0123456789"

// shellApp is a Wisp with shell access on, answered by the fake model, called with
// its API token.
type shellApp struct{ *chatApp }

func startShell(t *testing.T, dir string, fake *llmtest.Server) *shellApp {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, "wisp.json"), []byte(shellOn), 0o600); err != nil {
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

// pausedShell is a Wisp whose first reply, in a new conversation, paused for the
// shell command of shellTurns.
func pausedShell(t *testing.T, dir string) (a *shellApp, conv string, paused map[string]any, st *sseStream) {
	t.Helper()
	fake := llmtest.New()
	fake.Script(shellTurns()...)
	t.Cleanup(fake.Close)
	a = startShell(t, dir, fake)
	conv = a.conversation()
	paused, st = a.send(conv, "say hi in the shell", "run_paused")
	return a, conv, paused, st
}

func (s *shellApp) do(method, path string, body any) (int, map[string]any) {
	s.t.Helper()
	out := map[string]any{}
	return s.call(method, path, body, &out), out
}

// send posts a message on the SSE route (delta dialect) and reads frames until one of
// type until.
func (s *shellApp) send(conv, text, until string) (map[string]any, *sseStream) {
	s.t.Helper()
	st := s.streamQuery(conv, text, "dialect=delta")
	for {
		f, ok := st.next(s.t)
		if !ok {
			s.t.Fatalf("the stream ended before a %s frame", until)
		}
		if f.typ() == until {
			return f.Data, st
		}
	}
}

func (s *shellApp) conversation() string { return s.newConversation() }

// runStatus is a run's status now.
func (s *shellApp) runStatus(id string) string {
	s.t.Helper()
	_, out := s.do("GET", "/api/runs/"+id, nil)
	st, _ := out["run"].(map[string]any)["status"].(string)
	return st
}

// endedStatus reads the run's stream to its end, then says how the run ended.
func (s *shellApp) endedStatus(id string) string {
	s.t.Helper()
	s.resume(id, 0)
	return s.runStatus(id)
}

func shellTurns() []llmtest.Turn {
	return []llmtest.Turn{
		{Text: []string{"Let me ", "check."}, ToolCalls: []llm.ToolCall{
			llmtest.Call("call_sh", "RUN_SHELL", map[string]string{"command": "printf 'hi\\n'", "reason": "say hi"})}},
		{Text: []string{"It printed hi."}},
	}
}

// TestShellPauseSurvivesRestart: the run pauses for the user, Wisp stops and starts
// again, the card is still there, approving resumes the turn where it stopped and the
// reply is whole; a second decision gets 409 naming the first.
func TestShellPauseSurvivesRestart(t *testing.T) {
	dir := t.TempDir()
	a, conv, paused, _ := pausedShell(t, dir)
	fake := a.fake
	approvalID, _ := paused["approvalId"].(string)
	var asked map[string]any
	asked, _ = paused["approval"].(map[string]any)
	if approvalID == "" || asked["command"] != "printf 'hi\\n'" || asked["reason"] != "say hi" {
		t.Fatalf("run_paused %v", paused)
	}
	_, snap := a.do("GET", "/api/conversations/"+conv+"/snapshot", nil)
	runID := snap["activeRun"].(map[string]any)["id"].(string)
	if snap["status"] != "paused" {
		t.Fatalf("snapshot while paused: %v", snap)
	}
	a.Stop()

	b := startShell(t, dir, fake)
	_, pending := b.do("GET", "/api/approvals", nil)
	list, _ := pending["approvals"].([]any)
	if len(list) != 1 || list[0].(map[string]any)["id"] != approvalID {
		t.Fatalf("pending after a restart: %v", pending)
	}
	if st := b.runStatus(runID); st != "paused" {
		t.Fatalf("run after a restart: %s", st)
	}
	if code, out := b.do("POST", "/api/approvals/"+approvalID, map[string]any{"decision": "approve"}); code != 200 {
		t.Fatalf("approve: %d %v", code, out)
	}
	if code, out := b.do("POST", "/api/approvals/"+approvalID, map[string]any{"decision": "deny"}); code != 409 || out["decision"] != "approve" {
		t.Fatalf("second decision: %d %v", code, out)
	}
	if st := b.endedStatus(runID); st != "ended" {
		t.Fatalf("resumed run ended %s", st)
	}
	_, msgs := b.do("GET", "/api/conversations/"+conv+"/messages", nil)
	all := msgs["messages"].([]any)
	last := all[len(all)-1].(map[string]any)
	text, _ := last["text"].(string)
	if !strings.HasPrefix(text, "Let me check.") || !strings.Contains(text, "exited 0") || !strings.HasSuffix(text, "It printed hi.") {
		t.Fatalf("the reply after the resume: %q", text)
	}
	if got := lastToolText(fake); !strings.HasPrefix(got, "Exit code: 0\nOutput:\nhi") {
		t.Fatalf("the model got back %q", got)
	}
}

// TestShellConcurrentDecisions: two decisions at once, one wins, the command runs once.
func TestShellConcurrentDecisions(t *testing.T) {
	a, _, paused, st := pausedShell(t, t.TempDir())
	id := paused["approvalId"].(string)
	codes := make([]int, 2)
	var wg sync.WaitGroup
	for i, d := range []string{"approve", "approve_always"} {
		wg.Go(func() { codes[i], _ = a.do("POST", "/api/approvals/"+id, map[string]any{"decision": d}) })
	}
	wg.Wait()
	if !(codes[0] == 200 && codes[1] == 409 || codes[0] == 409 && codes[1] == 200) {
		t.Fatalf("decisions answered %v, want one 200 and one 409", codes)
	}
	runs := 0
	for {
		f, ok := st.next(t)
		if !ok {
			break
		}
		if f.typ() == "tool_status" && f.str("status") == "executing" {
			runs++
		}
	}
	if runs != 1 {
		t.Fatalf("the command ran %d times", runs)
	}
}

// TestShellDenyReachesTheModel: the note goes to the model and the turn goes on.
func TestShellDenyReachesTheModel(t *testing.T) {
	a, _, paused, st := pausedShell(t, t.TempDir())
	if code, out := a.do("POST", "/api/approvals/"+paused["approvalId"].(string), map[string]any{"decision": "deny", "note": "use echo instead"}); code != 200 {
		t.Fatalf("deny: %d %v", code, out)
	}
	st.all(t)
	if got := lastToolText(a.fake); !strings.Contains(got, "declined") || !strings.Contains(got, "use echo instead") {
		t.Fatalf("the model got back %q", got)
	}
}

// lastToolText is what the fake model last got back from a tool.
func lastToolText(fake *llmtest.Server) string {
	reqs := fake.Requests()
	msgs := reqs[len(reqs)-1].Messages
	for i := len(msgs) - 1; i >= 0; i-- {
		if msgs[i].Role == llm.RoleTool {
			return msgs[i].Text
		}
	}
	return ""
}

// TestShellStopWhilePaused: a stop ends the run interrupted, the approval cancelled
// and the tool cancelled, also for a run that paused before a restart.
func TestShellStopWhilePaused(t *testing.T) {
	for _, restart := range []bool{false, true} {
		name := "live"
		if restart {
			name = "after a restart"
		}
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			a, conv, paused, _ := pausedShell(t, dir)
			_, snap := a.do("GET", "/api/conversations/"+conv+"/snapshot", nil)
			runID := snap["activeRun"].(map[string]any)["id"].(string)
			if restart {
				a.Stop()
				a = startShell(t, dir, a.fake)
			}
			if code, out := a.do("POST", "/api/runs/"+runID+"/cancel", nil); code != 200 {
				t.Fatalf("stop: %d %v", code, out)
			}
			if st := a.runStatus(runID); st != "interrupted" { // the stop answers once the run has ended
				t.Fatalf("stopped run: %s", st)
			}
			code, out := a.do("POST", "/api/approvals/"+paused["approvalId"].(string), map[string]any{"decision": "approve"})
			if code != 409 || out["approval"].(map[string]any)["status"] != "cancelled" {
				t.Fatalf("approving a stopped run: %d %v", code, out)
			}
			_, dm := a.do("GET", "/api/conversations/"+conv+"/display-messages", nil)
			status := ""
			for _, m := range dm["displayMessages"].([]any) {
				if m := m.(map[string]any); m["contentType"] == "tool_call" {
					status, _ = m["status"].(string)
				}
			}
			if status != "cancelled" {
				t.Fatalf("the tool row is %q, want cancelled: %v", status, dm)
			}
		})
	}
}

// TestShellToolLifecycle: every /ws client sees the approval asked and decided, and the
// tool row go pending → waiting → executing → completed (seed 002).
func TestShellToolLifecycle(t *testing.T) {
	fake := llmtest.New()
	fake.Script(shellTurns()...)
	t.Cleanup(fake.Close)
	a := startShell(t, t.TempDir(), fake)
	u := strings.Replace(a.URL(), "http", "ws", 1) + "/ws"
	ws := dialSocketHeader(t, u, http.Header{"Authorization": {"Bearer " + shellToken}})
	paused, st := a.send(a.conversation(), "say hi", "run_paused")
	if code, out := a.do("POST", "/api/approvals/"+paused["approvalId"].(string), map[string]any{"decision": "approve"}); code != 200 {
		t.Fatalf("approve: %d %v", code, out)
	}
	st.all(t)
	// In order, as the socket got them: the approval's frames and the tool row's.
	var seen, states, branches []string
	for len(states) == 0 || states[len(states)-1] != "completed" {
		m := ws.waitFor(t, func(m map[string]any) bool {
			msg, _ := m["message"].(map[string]any)
			return m["type"] == "approval-requested" || m["type"] == "approval-decided" || msg["contentType"] == "tool_call"
		})
		if ap, ok := m["approval"].(map[string]any); ok {
			seen = append(seen, m["type"].(string)+":"+ap["status"].(string))
			id, _ := ap["messageId"].(string)
			branches = append(branches, id)
			continue
		}
		states = append(states, m["message"].(map[string]any)["status"].(string))
	}
	if got := strings.Join(seen, " "); got != "approval-requested:pending approval-decided:approved" {
		t.Fatalf("approval frames: %s", got)
	}
	// Both name the run's question, so a window can show its branch.
	if branches[0] == "" || branches[0] != branches[1] {
		t.Fatalf("the approval frames name messages %q", branches)
	}
	// Callbacks while it runs repeat "executing".
	got := strings.Join(slices.Compact(states), " ")
	if got != "pending waiting executing completed" {
		t.Fatalf("tool row states: %s", strings.Join(states, " "))
	}
}
