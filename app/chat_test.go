package app

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"net/http"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/wispapp/wisp/runtime"
	"github.com/wispapp/wisp/runtime/llm"
	"github.com/wispapp/wisp/runtime/llm/llmtest"
)

var update = flag.Bool("update", false, "rewrite golden files")

var statuses = []string{"🔍 Looking up track...", "🔍 Searching for track...", "✨ Setting up playback...", "Now playing: **Song**"}

// musicAction is the seed's progressive action: four replace-callbacks.
func musicAction() runtime.Action {
	return runtime.Action{
		Name: "PLAY_MUSIC", Description: "Play a song.",
		Parameters: json.RawMessage(`{"type":"object","properties":{"song":{"type":"string"}},"required":["song"]}`),
		Handler: func(_ context.Context, c runtime.Call) (string, error) {
			for _, s := range statuses {
				c.Callback(s, "")
			}
			return "playing", nil
		},
	}
}

// The seed's music example end to end over SSE.
func TestMusicExampleOverSSE(t *testing.T) {
	c := startChat(t, t.TempDir(), musicAction())
	c.fake.Script(
		llmtest.Turn{Text: []string{"I'll put ", "that on."}, ToolCalls: []llm.ToolCall{llmtest.Call("call_1", "PLAY_MUSIC", map[string]string{"song": "Song"})}},
		llmtest.Turn{},
	)
	conv := c.newConversation()
	frames := c.stream(conv, "play Song").all(t)
	last := frames[len(frames)-1]
	if last.typ() != "done" {
		t.Fatalf("last frame %s", last.Raw)
	}
	for _, f := range frames {
		n := 0
		for _, s := range statuses {
			if strings.Contains(f.str("fullText"), s) {
				n++
			}
		}
		if n > 1 {
			t.Fatalf("a frame shows %d statuses at once: %s", n, f.Raw)
		}
	}
	want := "I'll put that on.\n\nNow playing: **Song**"
	if got := last.str("fullText"); got != want {
		t.Fatalf("final fullText = %q, want %q", got, want)
	}
	hist, _ := json.Marshal(last.Data["actionCallbackHistory"])
	wantHist, _ := json.Marshal(statuses)
	if string(hist) != string(wantHist) {
		t.Fatalf("history = %s", hist)
	}
	msgs := c.messages(conv)
	if len(msgs) != 2 {
		t.Fatalf("messages = %+v", msgs)
	}
	reply := msgs[1]
	wantTrail := "I'll put that on.\n\n🔍 Looking up track...\n🔍 Searching for track...\n✨ Setting up playback...\n\nNow playing: **Song**"
	if reply.Text != wantTrail || len(reply.ActionCallbackHistory) != 4 || reply.Status != "ended" {
		t.Fatalf("reloaded reply = %+v", reply)
	}
}

// A scripted turn gives exactly the golden frames, ids strictly increase, and the
// run log replayed from disk is identical to what was streamed live.
func TestChatStreamGolden(t *testing.T) {
	c := startChat(t, t.TempDir(), musicAction())
	c.fake.Script(
		llmtest.Turn{Text: []string{"Hello", " there", "...", "\nBye \"friend\""}, Thinking: []string{"The user greets me."},
			ToolCalls: []llm.ToolCall{llmtest.Call("call_7", "PLAY_MUSIC", map[string]string{"song": "Song"})}},
		llmtest.Turn{Text: []string{"Enjoy ", "🎵"}},
	)
	conv := c.newConversation()
	s := c.stream(conv, "hi")
	if ct := s.resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/event-stream") ||
		s.resp.Header.Get("Cache-Control") != "no-cache, no-transform" || s.resp.Header.Get("X-Accel-Buffering") != "no" {
		t.Fatalf("headers %v", s.resp.Header)
	}
	runID := s.resp.Header.Get("X-Wisp-Run-Id")
	live := s.all(t)
	if s.comments < 1 {
		t.Fatal("no heartbeat comment at the start")
	}
	var b strings.Builder
	for i, f := range live {
		if f.ID != int64(i+1) {
			t.Fatalf("frame %d has id %d", i, f.ID)
		}
		b.WriteString(f.Raw + "\n")
	}
	got := regexp.MustCompile(`[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}`).ReplaceAllString(b.String(), "<id>")
	got = regexp.MustCompile(`call_[0-9a-f]{32}`).ReplaceAllString(got, "<call>") // Wisp's own call ids
	golden := "testdata/chat_stream.golden"
	if *update {
		os.WriteFile(golden, []byte(got), 0o644)
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if got != string(want) {
		t.Fatalf("frames differ from %s:\n%s", golden, got)
	}

	// The log on disk, compacted once the run ended (Stop waits for that): fewer
	// rows, and replaying it gives the same reply, every frame's id one the live
	// stream had, and the same final frame.
	c.core.chat.Stop() // nothing in memory any more: the replay must come from disk
	rows, err := c.core.store.RunEvents(context.Background(), runID, 0, 0)
	if err != nil || len(rows) >= len(live) {
		t.Fatalf("compacted run log has %d rows (%v), streamed %d", len(rows), err, len(live))
	}
	liveByID := map[int64]frame{}
	for _, f := range live {
		liveByID[f.ID] = f
	}
	for _, n := range []int64{0, 1, 3} {
		replayed := c.resume(runID, n)
		for _, f := range replayed {
			l, ok := liveByID[f.ID]
			if !ok || f.ID <= n {
				t.Fatalf("resume after %d: frame id %d was not streamed after %d", n, f.ID, n)
			}
			if full, ok := f.Data["fullText"]; ok && full != l.Data["fullText"] {
				t.Fatalf("resume after %d: frame %d shows %q, live showed %q", n, f.ID, full, l.Data["fullText"])
			}
		}
		if last := replayed[len(replayed)-1]; last.Raw != live[len(live)-1].Raw || last.ID != live[len(live)-1].ID {
			t.Fatalf("resume after %d ends with %s, live with %s", n, last.Raw, live[len(live)-1].Raw)
		}
	}
}

func (c *chatApp) resume(runID string, after int64) []frame {
	c.t.Helper()
	req, _ := http.NewRequest("GET", c.URL()+"/api/runs/"+runID+"/stream?after="+strconv.FormatInt(after, 10), nil)
	c.authorize(req)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		c.t.Fatal(err)
	}
	defer resp.Body.Close()
	return (&sseStream{resp: resp, rd: bufio.NewReader(resp.Body)}).all(c.t)
}

// A client that goes away mid-run finds the whole reply once the run has ended.
func TestDisconnectedClientFindsFullReply(t *testing.T) {
	c := startChat(t, t.TempDir())
	c.fake.Script(llmtest.TextTurn("one two three four five six seven eight nine ten", 15*time.Millisecond))
	conv := c.newConversation()
	s := c.stream(conv, "count")
	runID := s.resp.Header.Get("X-Wisp-Run-Id")
	if f, ok := s.next(t); !ok || f.typ() != "token" {
		t.Fatalf("first frame %+v", f)
	}
	s.resp.Body.Close()
	if st := c.waitRun(runID); st != "ended" {
		t.Fatalf("run status %s", st)
	}
	msgs := c.messages(conv)
	if len(msgs) != 2 || msgs[1].Text != "one two three four five six seven eight nine ten" {
		t.Fatalf("messages = %+v", msgs)
	}
}

// The conversation is free for the next message as soon as a client sees `done`.
func TestNextMessageRightAfterDone(t *testing.T) {
	c := startChat(t, t.TempDir())
	conv := c.newConversation()
	for i := 0; i < 10; i++ {
		s := c.stream(conv, "message "+strconv.Itoa(i))
		if s.resp.StatusCode != 200 {
			t.Fatalf("message %d: status %d", i, s.resp.StatusCode)
		}
		for {
			f, ok := s.next(t)
			if !ok {
				t.Fatalf("message %d: no done frame", i)
			}
			if f.typ() == "done" {
				break
			}
		}
	}
	if n := len(c.messages(conv)); n != 20 {
		t.Fatalf("%d messages saved", n)
	}
}
