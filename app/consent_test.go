package app

import (
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wispapp/wisp/runtime/llm"
	"github.com/wispapp/wisp/runtime/llm/llmtest"
)

// shellCall is a RUN_SHELL call the fake model makes.
func shellCall(command string) llm.ToolCall {
	return llmtest.Call("", "RUN_SHELL", map[string]string{"command": command, "reason": "the page said so"})
}

// decideNext reads the stream to its next pause and decides it; false when the
// stream ended without one.
func (s *shellApp) decideNext(st *sseStream, decision string) bool {
	s.t.Helper()
	for {
		f, ok := st.next(s.t)
		if !ok {
			return false
		}
		if f.typ() == "run_paused" {
			if code, out := s.do("POST", "/api/approvals/"+f.str("approvalId"), map[string]any{"decision": decision}); code != http.StatusOK {
				s.t.Fatalf("decide: %d %v", code, out)
			}
			return true
		}
	}
}

// TestCallIDsFromAHostileModel: a model (an OpenAI-compatible server) sends tool
// calls with no ids, or "call_0" for every call. The user allows `printf safe` once;
// the next call, in the same run or the next one, asking for `touch x`, asks again
// and does not run when refused. An approved MCP call releases no shell command
// either. Each was an approval reused for another command before Wisp made its own ids.
func TestCallIDsFromAHostileModel(t *testing.T) {
	for _, ids := range []llmtest.CallIDs{llmtest.CallIDsRepeated, llmtest.CallIDsOmitted} {
		t.Run(map[llmtest.CallIDs]string{llmtest.CallIDsRepeated: "repeated", llmtest.CallIDsOmitted: "omitted"}[ids], func(t *testing.T) {
			dir := t.TempDir()
			target := filepath.Join(dir, "x")
			url := calcServer(t)
			fake := llmtest.New()
			t.Cleanup(fake.Close)
			fake.SetCallIDs(ids)
			fake.Script(
				llmtest.Turn{ToolCalls: []llm.ToolCall{shellCall("printf safe")}},
				llmtest.Turn{ToolCalls: []llm.ToolCall{shellCall("touch " + target)}},
				llmtest.Turn{Text: []string{"Done."}},
				llmtest.Turn{ToolCalls: []llm.ToolCall{shellCall("touch " + target)}},
				llmtest.Turn{Text: []string{"Done again."}},
				llmtest.Turn{ToolCalls: []llm.ToolCall{llmtest.Call("", "calc__add", map[string]int{"a": 1, "b": 2})}},
				llmtest.Turn{ToolCalls: []llm.ToolCall{shellCall("touch " + target)}},
				llmtest.Turn{Text: []string{"Done at last."}},
			)
			a := startMCP(t, dir, `{"features": {"shellEnabled": true}, "terminal": {"cwd": "`+dir+`"},
				"mcpServers": {"calc": {"url": "`+url+`"}}}`, fake)
			a.waitMCP(a.dialWS(), "calc", "running")
			conv := a.conversation()

			st := a.streamQuery(conv, "do what the page says", "dialect=delta")
			if !a.decideNext(st, "approve") {
				t.Fatal("printf safe did not ask")
			}
			if !a.decideNext(st, "deny") {
				t.Fatal("touch, in the next step, ran on the first approval")
			}
			st.all(t)

			st = a.streamQuery(conv, "again", "dialect=delta")
			if !a.decideNext(st, "deny") {
				t.Fatal("touch, in the next run, ran on an old approval")
			}
			st.all(t)

			st = a.streamQuery(conv, "add, then touch", "dialect=delta")
			if !a.decideNext(st, "approve") {
				t.Fatal("the MCP call did not ask")
			}
			if !a.decideNext(st, "deny") {
				t.Fatal("touch ran on the MCP call's approval")
			}
			st.all(t)
			if _, err := os.Stat(target); err == nil {
				t.Fatal("touch x ran without the user's yes")
			}
			if got := lastToolText(fake); !strings.Contains(got, "declined") {
				t.Errorf("the model got back %q", got)
			}
		})
	}
}

// TestApprovingAsWispStops: once Wisp is stopping, a decision is refused (503) and
// changes nothing: the run stays paused and its approval pending, nothing runs, and
// after the next start the same decision runs the command once.
func TestApprovingAsWispStops(t *testing.T) {
	dir := t.TempDir()
	a, conv, paused, st := pausedShell(t, dir)
	approvalID := paused["approvalId"].(string)
	a.core.approvals.Close() // what Stop does first
	if code, out := a.do("POST", "/api/approvals/"+approvalID, map[string]any{"decision": "approve"}); code != http.StatusServiceUnavailable {
		t.Fatalf("a decision while stopping: %d %v", code, out)
	}
	a.Stop()
	for _, f := range st.all(t) {
		if f.typ() == "tool_status" && f.str("status") == "executing" {
			t.Fatal("the command started as Wisp stopped")
		}
	}
	b := startShell(t, dir, a.fake)
	_, pending := b.do("GET", "/api/approvals", nil)
	if list, _ := pending["approvals"].([]any); len(list) != 1 {
		t.Fatalf("pending after the restart: %v", pending)
	}
	if code, out := b.do("POST", "/api/approvals/"+approvalID, map[string]any{"decision": "approve"}); code != http.StatusOK {
		t.Fatalf("the decision after the restart: %d %v", code, out)
	}
	_, snap := b.do("GET", "/api/conversations/"+conv+"/snapshot", nil)
	if run, _ := snap["activeRun"].(map[string]any); run != nil {
		if st := b.endedStatus(run["id"].(string)); st != "ended" {
			t.Fatalf("the run ended %s", st)
		}
	}
	if got := lastToolText(a.fake); !strings.HasPrefix(got, "Exit code: 0\nOutput:\nhi") {
		t.Fatalf("the model got back %q", got)
	}
}
