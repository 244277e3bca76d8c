package chat

import (
	"reflect"
	"strings"
	"testing"

	"github.com/wispapp/wisp/app/dialect"
)

// deltaClient is what a delta-dialect client keeps: the segments' texts, folded from
// the frames as docs/chat.md says.
type deltaClient struct {
	segs []string
	done string
}

func (c *deltaClient) apply(t *testing.T, f frame) {
	t.Helper()
	m := f.decode()
	switch m["type"] {
	case "token":
		i := 0
		if n, ok := m["segment"].(float64); ok {
			i = int(n)
		}
		for len(c.segs) <= i {
			c.segs = append(c.segs, "")
		}
		if m["callback"] == true {
			c.segs[i] = m["text"].(string)
		} else {
			c.segs[i] += m["text"].(string)
		}
		if _, has := m["fullText"]; has {
			t.Errorf("a delta token frame carries fullText: %s", f.JSON)
		}
	case "reply":
		c.segs = nil
		for _, s := range m["segments"].([]any) {
			c.segs = append(c.segs, s.(string))
		}
		if m["fullText"] != c.text() {
			t.Errorf("reply frame: fullText %q, its segments make %q", m["fullText"], c.text())
		}
	case "done":
		c.done = m["fullText"].(string)
	}
}

func (c *deltaClient) text() string {
	var parts []string
	for _, s := range c.segs {
		if s != "" {
			parts = append(parts, s)
		}
	}
	return strings.Join(parts, "\n\n")
}

// A delta stream rebuilds, frame by frame, the same reply as the Eliza stream's
// fullText at the same sequence number: live, resumed and read back from disk.
func TestDeltaDialect(t *testing.T) {
	agent := musicScript()
	e := newEnv(t, agent)
	run := e.send(e.conversation(), "play something")

	eliza := subscribe(t, e.svc, run.ID, 0)
	live := subscribeIn(t, e.svc, run.ID, 0, dialect.NewDelta())
	<-agent.held
	head := next(t, live, 3)
	resumed := subscribeIn(t, e.svc, run.ID, 2, dialect.NewDelta()) // a client that saw events 1 and 2
	backlog := next(t, resumed, 2)
	close(agent.release)
	liveAll := append(head, rest(t, live)...)
	elizaAll := rest(t, eliza)
	waitRun(t, run)

	fullAt := map[int64]string{}
	for _, f := range elizaAll {
		if full, ok := f.decode()["fullText"].(string); ok {
			fullAt[f.Seq] = full
		}
	}
	want := []string{`{"type":"token","text":"Hello"}`, `{"type":"token","text":", world"}`}
	if liveAll[0].JSON != want[0] || liveAll[1].JSON != want[1] {
		t.Fatalf("first delta frames %v", liveAll[:2])
	}
	check := func(name string, frames []frame, c *deltaClient) {
		t.Helper()
		if len(frames) == 0 {
			t.Fatalf("%s: no frames", name)
		}
		for _, f := range frames {
			c.apply(t, f)
			if full, ok := fullAt[f.Seq]; ok && f.decode()["type"] != "done" && c.text() != full {
				t.Errorf("%s: after frame %d %s the client shows %q, the Eliza stream %q", name, f.Seq, f.JSON, c.text(), full)
			}
		}
		if last := frames[len(frames)-1].decode(); last["type"] != "done" || c.done != "Hello, world\n\nPlaying\n\nDone." || c.text() != c.done {
			t.Errorf("%s: ends with %v, client text %q", name, last, c.text())
		}
	}
	check("live", liveAll, &deltaClient{})
	if len(liveAll) != len(elizaAll) {
		t.Errorf("live delta: %d frames, Eliza %d", len(liveAll), len(elizaAll))
	}

	// Resumed after 2 while the turn held at event 3: tool_start, then the reply so
	// far once, numbered with the newest event it reflects; then the live events.
	if backlog[0].Seq != 3 || backlog[0].decode()["type"] != "tool_start" ||
		backlog[1].Seq != 3 || backlog[1].JSON != `{"type":"reply","segments":["Hello, world",""],"fullText":"Hello, world"}` {
		t.Fatalf("resumed backlog %v", backlog)
	}
	resumedAll := append(backlog, rest(t, resumed)...)
	if got, want := seqs(resumedAll), []int64{3, 3, 4, 5, 6, 7, 8}; !reflect.DeepEqual(got, want) {
		t.Errorf("resumed seqs %v, want %v", got, want)
	}
	check("resumed", resumedAll, &deltaClient{})

	// From disk, compacted: the first two tokens are one; after 5 of an ended run,
	// the remaining tool frame, the reply and done.
	e.waitCompacted(run)
	merged := frame{2, `{"type":"token","text":"Hello, world"}`}
	if got := rest(t, subscribeIn(t, e.svc, run.ID, 0, dialect.NewDelta())); !reflect.DeepEqual(got, append([]frame{merged}, liveAll[2:]...)) {
		t.Errorf("stored delta:\n%v\nlive:\n%v", got, liveAll)
	}
	stored5 := rest(t, subscribeIn(t, e.svc, run.ID, 5, dialect.NewDelta()))
	if got := seqs(stored5); !reflect.DeepEqual(got, []int64{6, 7, 8}) || stored5[1].decode()["type"] != "reply" {
		t.Errorf("stored delta after 5: %v", stored5)
	}
	check("stored after 5", stored5, &deltaClient{})
	if got := rest(t, subscribeIn(t, e.svc, run.ID, 8, dialect.NewDelta())); len(got) != 0 {
		t.Errorf("stored delta after the last event: %v", got)
	}
}

func seqs(frames []frame) []int64 {
	out := make([]int64, len(frames))
	for i, f := range frames {
		out[i] = f.Seq
	}
	return out
}

func TestOver(t *testing.T) {
	agent := musicScript()
	e := newEnv(t, agent)
	run := e.send(e.conversation(), "play")
	live := subscribe(t, e.svc, run.ID, 99)
	if live.Over() {
		t.Error("a live run is over")
	}
	close(agent.release)
	waitRun(t, run)
	for after, want := range map[int64]bool{0: false, 7: false, 8: true, 99: true} {
		if got := subscribe(t, e.svc, run.ID, after).Over(); got != want {
			t.Errorf("ended run, after %d: Over() = %v, want %v", after, got, want)
		}
	}
}
