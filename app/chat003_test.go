package app

import (
	"bufio"
	"bytes"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/wispapp/wisp/runtime/llm"
	"github.com/wispapp/wisp/runtime/llm/llmtest"
)

// events003 posts to /api/chat and reads the SSE answer as (event, data) pairs.
func events003(t *testing.T, c *chatApp, body map[string]any) [][2]string {
	t.Helper()
	data, _ := json.Marshal(body)
	req, _ := http.NewRequest("POST", c.URL()+"/api/chat", bytes.NewReader(data))
	req.Header.Set("Content-Type", "application/json")
	c.authorize(req)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != 200 || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		t.Fatalf("/api/chat: %d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	var out [][2]string
	var name string
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		line := sc.Text()
		if v, ok := strings.CutPrefix(line, "event: "); ok {
			name = v
		} else if v, ok := strings.CutPrefix(line, "data: "); ok {
			out = append(out, [2]string{name, v})
		}
	}
	return out
}

// Seed 003's dialect: init, deltas, a tool call as an action, context at the end; the
// session is a conversation whose history the next request continues.
func TestChat003(t *testing.T) {
	c := startChat(t, t.TempDir(), musicAction())
	c.fake.Script(
		llmtest.Turn{Text: []string{"Let me ", "play it."}, ToolCalls: []llm.ToolCall{llmtest.Call("call_m", "PLAY_MUSIC", map[string]string{"track": "Song"})}},
		llmtest.Turn{Text: []string{"Enjoy!"}},
	)
	evs := events003(t, c, map[string]any{"messages": []any{map[string]any{"role": "user", "content": "play Song"}}})
	var names []string
	var text strings.Builder
	var session string
	for _, e := range evs {
		names = append(names, e[0])
		var d map[string]any
		_ = json.Unmarshal([]byte(e[1]), &d)
		switch e[0] {
		case "init":
			session, _ = d["session_id"].(string)
			if session == "" || d["request_id"] == "" || d["type"] != "init" {
				t.Fatalf("init %s", e[1])
			}
		case "delta":
			text.WriteString(d["v"].(string))
		case "action":
			if d["session_id"] != session || (d["type"] != "tool_call" && d["type"] != "tool_result") {
				t.Errorf("action %s", e[1])
			}
		}
	}
	joined := strings.Join(names, ",")
	if !strings.HasPrefix(joined, "init,") || !strings.HasSuffix(joined, ",context") || !strings.Contains(joined, "action") || text.String() != "Let me play it.Enjoy!" {
		t.Fatalf("events %s, text %q", joined, text.String())
	}

	// stream: false, in the same session: one JSON answer, and the model saw the history.
	c.fake.Script(llmtest.Turn{Text: []string{"Again?"}})
	var out map[string]any
	code := c.call("POST", "/api/chat", map[string]any{"stream": false, "session_id": session,
		"messages": []any{map[string]any{"role": "user", "content": "and again"}}}, &out)
	if code != 200 || out["session_id"] != session || out["message"] != "Again?" || out["status"] != "done" {
		t.Fatalf("stream false: %d %v", code, out)
	}
	reqs := c.fake.Requests()
	if last := reqs[len(reqs)-1].Messages; len(last) < 3 || last[0].Text != "play Song" {
		t.Errorf("the model did not get the session's history: %+v", last)
	}
	if code := c.call("POST", "/api/chat", map[string]any{"session_id": "nope", "messages": []any{map[string]any{"role": "user", "content": "x"}}}, &out); code != 404 {
		t.Errorf("an unknown session: %d %v", code, out)
	}
	if code := c.call("POST", "/api/chat", map[string]any{"messages": []any{}}, &out); code != 400 {
		t.Errorf("no messages: %d %v", code, out)
	}
}
