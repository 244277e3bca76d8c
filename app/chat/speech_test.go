package chat

import (
	"context"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/wispapp/wisp/app/dialect"
	"github.com/wispapp/wisp/app/store"
	"github.com/wispapp/wisp/runtime"
)

// newSpeakingEnv is newEnv with Options.Speak answering speak.
func newSpeakingEnv(t *testing.T, agent Agent, speak bool) *env {
	t.Helper()
	st, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "wisp.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	e := &env{t: t, st: st, frames: &frames{}}
	e.svc = New(Options{Store: st, Agent: agent, Events: e.frames, Logger: quiet, NoTitles: true,
		Speak: func() bool { return speak }})
	if err := e.svc.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(e.svc.Stop)
	return e
}

// spoken is a speech frame as a client reads it, and the reply text it had then.
type spoken struct {
	Seq                        int64
	Index, Segment, Start, End int
	Text                       string
	Final                      bool
	Had                        string // the reply's text when the clause came
}

// speechOf reads the speech frames of a stream in seed 000's dialect.
func speechOf(frames []frame) []spoken {
	var out []spoken
	had := ""
	for _, f := range frames {
		m := f.decode()
		switch m["type"] {
		case "token":
			had = m["fullText"].(string)
		case "speech":
			final, _ := m["final"].(bool)
			out = append(out, spoken{f.Seq, int(m["index"].(float64)), int(m["segment"].(float64)), int(m["start"].(float64)),
				int(m["end"].(float64)), m["text"].(string), final, had})
		}
	}
	return out
}

var speechScript = []runtime.Event{
	text("Hello there. "), text("How are "), text("you? Fine"),
	toolStart("c1", "PLAY"), callback("c1", "Working. Done."), toolEnd("c1", "PLAY", "ok"),
	text("```\nls. -la\n```\n"), text("All done. "), text("Bye!"),
}

// A speaking run logs its clauses in order, after the text that completed each, from
// the model's text only (not the callback), the last with Final.
func TestRunSpeaksItsClauses(t *testing.T) {
	e := newSpeakingEnv(t, newScript(-1, speechScript...), true)
	run := e.send(e.conversation(), "hi")
	got := speechOf(rest(t, subscribe(t, e.svc, run.ID, 0)))
	want := []struct {
		text       string
		seg, start int
		raw        string // the text a client must have when the clause comes
	}{
		{"Hello there.", 0, 0, "Hello there."}, {"How are you?", 0, 13, "How are you?"}, {"Fine", 0, 26, "Fine"},
		{"a code block", 2, 0, "-la\n```"}, {"All done.", 2, 16, "All done."}, {"Bye!", 2, 26, "Bye!"},
	}
	if len(got) != len(want) {
		t.Fatalf("clauses %+v", got)
	}
	for i, w := range want {
		g := got[i]
		if g.Index != i || g.Text != w.text || g.Segment != w.seg || g.Start != w.start || g.Final != (i == len(want)-1) {
			t.Errorf("clause %d = %+v, want %+v", i, g, w)
		}
		if !strings.Contains(g.Had, w.raw) {
			t.Errorf("clause %d came before its text: %+v", i, g)
		}
	}
	if out := waitRun(t, run); out.Status != StatusEnded {
		t.Fatalf("outcome %+v", out)
	}
}

// A run that does not speak logs no clause.
func TestRunSilentWhenSpeakIsOff(t *testing.T) {
	for _, speak := range []bool{false} {
		e := newSpeakingEnv(t, newScript(-1, speechScript...), speak)
		run := e.send(e.conversation(), "hi")
		if got := speechOf(rest(t, subscribe(t, e.svc, run.ID, 0))); len(got) != 0 {
			t.Fatalf("clauses while silent: %+v", got)
		}
	}
	e := newEnv(t, newScript(-1, speechScript...)) // no Speak at all
	run := e.send(e.conversation(), "hi")
	if got := speechOf(rest(t, subscribe(t, e.svc, run.ID, 0))); len(got) != 0 {
		t.Fatalf("clauses without Speak: %+v", got)
	}
}

// After the log's compaction, a client resuming from any number gets exactly the
// clauses after it, numbered as they were live, and the text stays whole around them.
func TestSpeechResumeAnywhereAfterCompaction(t *testing.T) {
	var events []runtime.Event
	var want strings.Builder
	for i := range 120 {
		tok := []string{"One", " two.", " Thr", "ee! ", "😀", "x\n", ""}[i%7]
		events = append(events, text(tok))
		want.WriteString(tok)
	}
	e := newSpeakingEnv(t, newScript(-1, events...), true)
	run := e.send(e.conversation(), "go")
	live := rest(t, subscribe(t, e.svc, run.ID, 0))
	liveSpeech := speechOf(live)
	if len(liveSpeech) < 30 || !liveSpeech[len(liveSpeech)-1].Final {
		t.Fatalf("live clauses %+v", liveSpeech)
	}
	waitRun(t, run)
	e.waitCompacted(run)
	rows, err := e.st.RunEvents(context.Background(), run.ID, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) >= len(live) {
		t.Fatalf("the log was not compacted around the clauses: %d rows for %d events", len(rows), len(live))
	}
	last := live[len(live)-1]
	for n := int64(0); n <= last.Seq; n++ {
		frames := rest(t, subscribe(t, e.svc, run.ID, n))
		var wantSpeech []spoken
		for _, s := range liveSpeech {
			if s.Seq > n {
				wantSpeech = append(wantSpeech, s)
			}
		}
		got := speechOf(frames)
		for i := range got {
			got[i].Had = ""
		}
		for i := range wantSpeech {
			wantSpeech[i].Had = ""
		}
		if !reflect.DeepEqual(got, wantSpeech) {
			t.Fatalf("after %d: clauses %+v, want %+v", n, got, wantSpeech)
		}
		if n < last.Seq && frames[len(frames)-1] != last {
			t.Fatalf("after %d: the stream does not end with the final frame", n)
		}
	}
	// The text is whole in the delta dialect too, with the clauses among it.
	frames := rest(t, subscribeIn(t, e.svc, run.ID, 0, dialect.NewDelta()))
	var text strings.Builder
	clauses := 0
	for _, f := range frames {
		m := f.decode()
		switch m["type"] {
		case "token":
			text.WriteString(m["text"].(string))
		case "speech":
			clauses++
		}
	}
	if text.String() != want.String() || clauses != len(liveSpeech) {
		t.Fatalf("delta dialect: %q with %d clauses", text.String(), clauses)
	}
	// And after a restart, read back from disk.
	e.svc.Stop()
	again := startOn(t, e.st, newScript(-1))
	if got := speechOf(rest(t, subscribe(t, again.svc, run.ID, 0))); !reflect.DeepEqual(got, liveSpeech) {
		t.Fatalf("after a restart: %+v, want %+v", got, liveSpeech)
	}
}

// A hostile reply of endless sentences is spoken up to maxClauses, the last Final.
func TestSpeechCappedPerRun(t *testing.T) {
	e := newSpeakingEnv(t, newScript(-1, text(strings.Repeat("Hi. ", maxClauses+500))), true)
	run := e.send(e.conversation(), "go")
	got := speechOf(rest(t, subscribe(t, e.svc, run.ID, 0)))
	if len(got) != maxClauses || got[len(got)-1].Index != maxClauses-1 || !got[len(got)-1].Final {
		t.Fatalf("%d clauses, last %+v", len(got), got[len(got)-1])
	}
}

// A stopped run says nothing more: the clause it held is not sent.
func TestStoppedRunSpeaksNoMore(t *testing.T) {
	agent := newScript(2, text("Hello there. "), text("More to say"), text("never."))
	e := newSpeakingEnv(t, agent, true)
	run := e.send(e.conversation(), "go")
	<-agent.held
	run.Cancel(context.Canceled)
	got := speechOf(rest(t, subscribe(t, e.svc, run.ID, 0)))
	if len(got) != 1 || got[0].Text != "Hello there." || got[0].Final {
		t.Fatalf("clauses of a stopped run: %+v", got)
	}
}
