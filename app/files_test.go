package app

import (
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wispapp/wisp/runtime/llm"
	"github.com/wispapp/wisp/runtime/llm/llmtest"
)

// TestFileEditEndToEnd: through the agent, the fake model and a real database, the
// model reads a file of files.roots (asked: reading there), edits it (asked with the
// diff), the file changes, the model is told, the chat's call lists the edit and
// the user undoes it; a second undo is refused. A read of the state folder through
// a link under the root is refused before anyone is asked.
func TestFileEditEndToEnd(t *testing.T) {
	root := t.TempDir()
	path := filepath.Join(root, "notes.md")
	if err := os.WriteFile(path, []byte("# Notes\nHelo\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	fake := llmtest.New()
	t.Cleanup(fake.Close)
	fake.Script(
		llmtest.Turn{ToolCalls: []llm.ToolCall{llmtest.Call("", "READ_FILE", map[string]string{"path": "notes.md", "reason": "see it"})}},
		llmtest.Turn{ToolCalls: []llm.ToolCall{llmtest.Call("", "EDIT_FILE", map[string]string{
			"path": path, "oldText": "Helo", "newText": "Hello", "reason": "fix the typo"})}},
		llmtest.Turn{Text: []string{"Fixed."}},
		llmtest.Turn{ToolCalls: []llm.ToolCall{llmtest.Call("", "READ_FILE", map[string]string{"path": "state/wisp.db", "reason": "peek"})}},
		llmtest.Turn{Text: []string{"I cannot."}},
	)
	cfg, _ := json.Marshal(map[string]any{"files": map[string]any{"roots": []string{root}}})
	a := startMemory(t, string(cfg), fake, nil)
	if err := os.Symlink(a.StateDir(), filepath.Join(root, "state")); err != nil {
		t.Fatal(err)
	}
	conv := a.conversation()
	st := a.streamQuery(conv, "fix my notes", "dialect=delta")
	ap := pausedFor(t, st)
	if ap["kind"] != "file_read" || ap["path"] != path || ap["root"] != root || ap["toolName"] != "READ_FILE" {
		t.Fatalf("the read card: %v", ap)
	}
	if code, out := a.do("POST", "/api/approvals/"+ap["id"].(string), map[string]any{"decision": "approve"}); code != http.StatusOK {
		t.Fatalf("approve the read: %d %v", code, out)
	}
	ap = pausedFor(t, st)
	wantDiff := "--- a/notes.md\n+++ b/notes.md\n@@ -1,2 +1,2 @@\n # Notes\n-Helo\n+Hello\n"
	if ap["kind"] != "file_edit" || ap["diff"] != wantDiff || ap["root"] != root || ap["reason"] != "fix the typo" {
		t.Fatalf("the edit card: %v", ap)
	}
	if got, _ := os.ReadFile(path); string(got) != "# Notes\nHelo\n" {
		t.Fatalf("changed before the yes: %q", got)
	}
	if code, out := a.do("POST", "/api/approvals/"+ap["id"].(string), map[string]any{"decision": "approve"}); code != http.StatusOK {
		t.Fatalf("approve the edit: %d %v", code, out)
	}
	st.all(t)
	if got, _ := os.ReadFile(path); string(got) != "# Notes\nHello\n" {
		t.Fatalf("after the edit: %q", got)
	}
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %v", fi.Mode().Perm())
	}
	reqs := fake.Requests()
	if res, _ := reqs[1].ToolResult(); !strings.Contains(res, "Helo") || !strings.Contains(res, "not the user's") {
		t.Errorf("the model read %q", res)
	}
	if res := lastToolResult(t, fake); !strings.HasPrefix(res, "Edited "+path) {
		t.Errorf("the model was told %q", res)
	}
	code, out := a.do("GET", "/api/edits?callId="+ap["callId"].(string), nil)
	edits, _ := out["edits"].([]any)
	if code != http.StatusOK || len(edits) != 1 {
		t.Fatalf("edits of the call: %d %v", code, out)
	}
	id := edits[0].(map[string]any)["id"].(string)
	if code, out := a.do("POST", "/api/edits/"+id+"/undo", nil); code != http.StatusOK || out["edit"].(map[string]any)["undoneAt"] == nil {
		t.Fatalf("undo: %d %v", code, out)
	}
	if got, _ := os.ReadFile(path); string(got) != "# Notes\nHelo\n" {
		t.Fatalf("after the undo: %q", got)
	}
	if code, out := a.do("POST", "/api/edits/"+id+"/undo", nil); code != http.StatusConflict || !strings.Contains(out["error"].(string), "already undone") {
		t.Fatalf("second undo: %d %v", code, out)
	}
	if code, _ := a.do("POST", "/api/edits/ed_none/undo", nil); code != http.StatusNotFound {
		t.Fatalf("undo of nothing: %d", code)
	}

	// Reading Wisp's database through a link under the root: refused, nobody asked.
	st = a.streamQuery(conv, "peek", "dialect=delta")
	st.all(t)
	if res := lastToolResult(t, fake); !strings.Contains(res, "leads out of") && !strings.Contains(res, "Wisp's own state folder") {
		t.Fatalf("the model was told %q", res)
	}
	if code, out := a.do("GET", "/api/approvals", nil); code != http.StatusOK || len(out["approvals"].([]any)) != 0 {
		t.Fatalf("approvals: %d %v", code, out)
	}
}
