package app

import (
	"bufio"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/wispapp/wisp/runtime/llm"
	"github.com/wispapp/wisp/runtime/llm/llmtest"
)

// chunks opens a run's chunk stream after the event number after (Last-Event-ID).
func (c *chatApp) chunks(runID string, after int64) *sseStream {
	c.t.Helper()
	req, _ := http.NewRequest("GET", c.URL()+"/api/runs/"+runID+"/chunks", nil)
	if after > 0 {
		req.Header.Set("Last-Event-ID", strconv.FormatInt(after, 10))
	}
	c.authorize(req)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		c.t.Fatal(err)
	}
	c.t.Cleanup(func() { resp.Body.Close() })
	if resp.StatusCode != http.StatusOK {
		c.t.Fatalf("chunks after %d: status %d", after, resp.StatusCode)
	}
	return &sseStream{resp: resp, rd: bufio.NewReader(resp.Body)}
}

func deltas(frames []frame) string {
	var b strings.Builder
	for _, f := range frames {
		if f.typ() == "text_delta" {
			b.WriteString(f.str("delta"))
		}
	}
	return b.String()
}

// Seed 001's chunks over a run: typed chunks with ids, an action's callback as a
// custom chunk, the output last; a stream dropped while the run goes on, resumed by
// Last-Event-ID, has no gap and no duplicate; so does one resumed after the run ended
// (its log compacted) from any event.
func TestRunChunks(t *testing.T) {
	c := startChat(t, t.TempDir(), musicAction())
	words := strings.Split("one two three four five six seven eight nine ten", " ")
	for i := range words[1:] {
		words[i+1] = " " + words[i+1]
	}
	c.fake.Script(
		llmtest.Turn{Thinking: []string{"hm"}, Text: []string{"Playing."}, ToolCalls: []llm.ToolCall{llmtest.Call("call_1", "PLAY_MUSIC", map[string]string{"song": "Song"})}},
		llmtest.Turn{Text: words, Delay: 20 * time.Millisecond},
	)
	conv := c.newConversation()
	s := c.streamQuery(conv, "play Song", "dialect=delta")
	runID := s.resp.Header.Get("X-Wisp-Run-Id")

	// Read some chunks live, drop the connection, go on from the last id.
	first := c.chunks(runID, 0)
	var seen []frame
	for len(seen) < 6 {
		f, ok := first.next(t)
		if !ok {
			t.Fatal("the chunk stream ended early")
		}
		seen = append(seen, f)
	}
	first.resp.Body.Close()
	rest := c.chunks(runID, seen[len(seen)-1].ID).all(t)
	live := append(seen, rest...)
	s.all(t)

	var types []string
	for i, f := range live {
		types = append(types, f.typ())
		if i > 0 && f.ID <= live[i-1].ID {
			t.Fatalf("ids do not increase: %d after %d", f.ID, live[i-1].ID)
		}
		if f.str("agentType") != "wisp" || f.str("agentId") != runID || f.Data["timestamp"] == nil {
			t.Fatalf("chunk head %s", f.Raw)
		}
	}
	joined := strings.Join(types, ",")
	for _, want := range []string{"thinking", "text_delta", "tool_start", "custom", "tool_end"} {
		if !strings.Contains(joined, want) {
			t.Errorf("no %s chunk in %s", want, joined)
		}
	}
	if !strings.HasSuffix(joined, ",output") {
		t.Errorf("chunks %s", joined)
	}
	// The reasoning is closed before the text, live and after compaction.
	closed := func(frames []frame) bool {
		for i, f := range frames {
			if f.typ() == "thinking" && f.Data["isComplete"] == true {
				return i+1 < len(frames) && frames[i+1].typ() == "text_delta" && frames[i-1].typ() == "thinking"
			}
		}
		return false
	}
	if !closed(live) {
		t.Errorf("no thinking chunk with isComplete between the reasoning and the text: %s", joined)
	}
	want := "Playing.one two three four five six seven eight nine ten"
	if got := deltas(live); got != want {
		t.Errorf("live text %q, want %q", got, want)
	}

	// After the end (its log compacted, so fewer chunks): from every event number a
	// client may have seen live, the rest adds up exactly.
	c.core.chat.Stop() // waits for the run's goroutine, which compacts the log after the end
	all := c.chunks(runID, 0).all(t)
	if deltas(all) != want || len(all) >= len(live) || !closed(all) {
		t.Fatalf("stored: %d chunks (live %d), text %q", len(all), len(live), deltas(all))
	}
	last := live[len(live)-1].ID
	for i := int64(1); i < last; i++ { // (after the last there is nothing: 204)
		var before []frame
		for _, f := range live {
			if f.ID <= i {
				before = append(before, f)
			}
		}
		after := c.chunks(runID, i).all(t)
		if got := deltas(before) + deltas(after); got != want {
			t.Errorf("resumed after %d: %q", i, got)
		}
	}
}
