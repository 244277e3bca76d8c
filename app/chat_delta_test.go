package app

import (
	"bufio"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/wispapp/wisp/runtime/llm"
	"github.com/wispapp/wisp/runtime/llm/llmtest"
)

// The delta dialect over HTTP through the fake model: token frames carry no fullText,
// a client folding them shows the final reply, a resume gets the reply once, and a
// stream with nothing left answers 204.
func TestDeltaDialectOverSSE(t *testing.T) {
	c := startChat(t, t.TempDir(), musicAction())
	c.fake.Script(
		llmtest.Turn{Text: []string{"I'll put ", "that on."}, ToolCalls: []llm.ToolCall{llmtest.Call("call_1", "PLAY_MUSIC", map[string]string{"song": "Song"})}},
		llmtest.Turn{Text: []string{"Enjoy!"}},
	)
	conv := c.newConversation()
	s := c.streamQuery(conv, "play Song", "dialect=delta")
	runID := s.resp.Header.Get("X-Wisp-Run-Id")
	frames := s.all(t)
	var segs []string
	for _, f := range frames {
		if f.typ() != "token" {
			continue
		}
		if _, has := f.Data["fullText"]; has {
			t.Fatalf("a delta token frame has fullText: %s", f.Raw)
		}
		i := 0
		if n, ok := f.Data["segment"].(float64); ok {
			i = int(n)
		}
		for len(segs) <= i {
			segs = append(segs, "")
		}
		if f.Data["callback"] == true {
			segs[i] = f.str("text")
		} else {
			segs[i] += f.str("text")
		}
	}
	want := "I'll put that on.\n\nNow playing: **Song**\n\nEnjoy!"
	last := frames[len(frames)-1]
	if last.typ() != "done" || last.str("fullText") != want {
		t.Fatalf("last frame %s", last.Raw)
	}
	if got := strings.Join(nonEmpty(segs), "\n\n"); got != want {
		t.Fatalf("the folded segments show %q, want %q", got, want)
	}
	// The stream names the question it saved, so the page can name its bubble.
	if msgs := c.messages(conv); len(msgs) == 0 || msgs[0].Role != "user" || s.resp.Header.Get("X-Wisp-Message-Id") != msgs[0].ID {
		t.Fatalf("X-Wisp-Message-Id %q, messages %+v", s.resp.Header.Get("X-Wisp-Message-Id"), msgs)
	}

	resumed := c.resumeQuery(runID, "dialect=delta&after=2")
	var reply *frame
	for i := range resumed {
		if resumed[i].typ() == "reply" {
			reply = &resumed[i]
		}
		if resumed[i].typ() == "token" {
			t.Errorf("a resumed stream of an ended run sent a token: %s", resumed[i].Raw)
		}
	}
	if reply == nil || reply.str("fullText") != want || resumed[len(resumed)-1].typ() != "done" {
		t.Fatalf("resumed after 2: %v", resumed)
	}

	for _, q := range []string{"after=" + strconv.FormatInt(last.ID, 10), "dialect=delta&after=" + strconv.FormatInt(last.ID, 10)} {
		resp, err := http.Get(c.URL() + "/api/runs/" + runID + "/stream?" + q)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusNoContent {
			t.Errorf("?%s of an ended run: status %d, want 204", q, resp.StatusCode)
		}
	}
}

func nonEmpty(ss []string) []string {
	var out []string
	for _, s := range ss {
		if s != "" {
			out = append(out, s)
		}
	}
	return out
}

func (c *chatApp) resumeQuery(runID, query string) []frame {
	c.t.Helper()
	resp, err := http.Get(c.URL() + "/api/runs/" + runID + "/stream?" + query)
	if err != nil {
		c.t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		c.t.Fatalf("resume ?%s: status %d", query, resp.StatusCode)
	}
	return (&sseStream{resp: resp, rd: bufio.NewReader(resp.Body)}).all(c.t)
}
