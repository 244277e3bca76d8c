package chat

import (
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/wispapp/wisp/app/store"
	"github.com/wispapp/wisp/runtime"
)

func thinking(s string) runtime.Event {
	return runtime.Event{Type: runtime.EventThinking, Data: runtime.Thinking{Text: s}}
}

func row(seq int64, typ, data string) store.RunEvent {
	return store.RunEvent{RunID: "r", Seq: seq, Type: typ, Data: json.RawMessage(data), Time: time.UnixMilli(seq)}
}

func TestCompactLog(t *testing.T) {
	rows := []store.RunEvent{
		row(1, "thinking", `{"text":"Hm"}`), row(2, "thinking", `{"text":"m."}`),
		row(3, "text_delta", `{"text":"é"}`), row(4, "text_delta", `{"text":""}`), row(5, "text_delta", `{"text":"tö"}`),
		row(6, "tool_start", `{"callId":"c","name":"X"}`),
		row(7, "text_delta", `{"text":"alone"}`),
		row(8, "callback", `{"callId":"c","text":"a"}`),
		row(9, "text_delta", `{"text":"a"}`), row(11, "text_delta", `{"text":"gap"}`), // not consecutive numbers
		// merged before (by the log writer): row 14 stands for 13..14
		row(12, "text_delta", `{"text":"x","cuts":[1]}`), row(14, "text_delta", `{"text":"yz","cuts":[1,1]}`),
		row(16, "text_delta", `{"text":"uv","cuts":[1,1]}`), // stands for 15..16: follows on
		row(18, "text_delta", `{"text":"st","cuts":[1,1]}`), // stands for 17..18: so does this
		row(21, "text_delta", `{"text":"qr","cuts":[1,1]}`), // stands for 20..21: 19 is missing
		row(22, "output", `{"fullText":"…"}`),
	}
	got := compactLog(rows)
	want := []store.Merged{
		{From: 1, Row: row(2, "thinking", `{"text":"Hmm.","cuts":[2,2]}`)},
		{From: 3, Row: row(5, "text_delta", `{"text":"étö","cuts":[2,0,3]}`)},
		{From: 11, Row: row(18, "text_delta", `{"text":"gapxyzuvst","cuts":[3,1,1,1,1,1,1,1]}`)},
	}
	if len(got) != len(want) {
		t.Fatalf("compactLog = %+v", got)
	}
	for i := range want {
		if got[i].From != want[i].From || got[i].Row.Seq != want[i].Row.Seq || got[i].Row.Type != want[i].Row.Type ||
			string(got[i].Row.Data) != string(want[i].Row.Data) || !got[i].Row.Time.Equal(want[i].Row.Time) {
			t.Errorf("stretch %d = %+v %s, want %+v %s", i, got[i], got[i].Row.Data, want[i], want[i].Row.Data)
		}
	}
	// Merging what was merged changes nothing more.
	again := []store.RunEvent{want[0].Row, want[1].Row, rows[5]}
	if more := compactLog(again); len(more) != 0 {
		t.Errorf("compacting a compacted log: %+v", more)
	}
}

// After compaction, a client resuming from any event number gets exactly the rest of
// the reply, with no gap and no repeat, and the final event keeps its number.
func TestResumeAnywhereAfterCompaction(t *testing.T) {
	var events []runtime.Event
	events = append(events, thinking("Let "), thinking("me "), thinking("see."))
	var want strings.Builder
	for i := range 200 {
		tok := []string{"ab", "ç", "🎵", " ", "…", "x\n", ""}[i%7]
		events = append(events, text(tok))
		want.WriteString(tok)
	}
	agent := newScript(-1, events...)
	e := newEnv(t, agent)
	run := e.send(e.conversation(), "go")
	live := rest(t, subscribe(t, e.svc, run.ID, 0))
	waitRun(t, run)
	e.waitCompacted(run)

	rows, err := e.st.RunEvents(context.Background(), run.ID, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 3 { // thinking, text, output
		t.Fatalf("compacted log has %d rows: %v", len(rows), rows)
	}
	last := live[len(live)-1]
	if rows[2].Seq != last.Seq || rows[2].Seq != int64(len(events)+1) {
		t.Fatalf("the final event is numbered %d, was %d", rows[2].Seq, last.Seq)
	}

	// textAt is the reply (and thinking) a client had after seeing event n live.
	textAt := func(n int64) (reply, thought string) {
		for _, ev := range events[:n] {
			switch d := ev.Data.(type) {
			case runtime.TextDelta:
				reply += d.Text
			case runtime.Thinking:
				thought += d.Text
			}
		}
		return reply, thought
	}
	for n := int64(0); n <= last.Seq; n++ {
		reply, thought := textAt(min(n, int64(len(events))))
		frames := rest(t, subscribe(t, e.svc, run.ID, n))
		for _, f := range frames {
			m := f.decode()
			switch m["type"] {
			case "token":
				reply += m["text"].(string)
				if m["fullText"] != reply {
					t.Fatalf("after %d: frame %d shows %q, the text so far is %q", n, f.Seq, m["fullText"], reply)
				}
			case "thinking":
				thought += m["text"].(string)
			}
		}
		if n < last.Seq && (len(frames) == 0 || frames[len(frames)-1] != last) {
			t.Fatalf("after %d: the stream does not end with the final frame: %v", n, frames)
		}
		if reply != want.String() || thought != "Let me see." {
			t.Fatalf("after %d: rebuilt %q / %q", n, reply, thought)
		}
	}
	if frames := rest(t, subscribe(t, e.svc, run.ID, last.Seq)); len(frames) != 0 {
		t.Fatalf("after the final event: %v", frames)
	}
	if !reflect.DeepEqual(rest(t, subscribe(t, e.svc, run.ID, last.Seq-1)), []frame{last}) {
		t.Fatal("the final frame changed")
	}
}

// A run that ended before this start (here: compaction was never done) is compacted
// when the service starts.
func TestCompactsWhatEndedBefore(t *testing.T) {
	st, err := store.Open(context.Background(), t.TempDir()+"/wisp.db")
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	ctx := context.Background()
	conv := store.Conversation{ID: "c1", Title: "t", CreatedAt: time.Now(), UpdatedAt: time.Now()}
	if err := st.CreateConversation(ctx, conv); err != nil {
		t.Fatal(err)
	}
	if err := st.CreateRun(ctx, store.Run{ID: "old", ConversationID: "c1", Status: store.RunEnded, StartedAt: time.Now(), EndedAt: time.Now()}); err != nil {
		t.Fatal(err)
	}
	var evs []store.RunEvent
	for i := int64(1); i <= 50; i++ {
		evs = append(evs, store.RunEvent{RunID: "old", Seq: i, Type: "text_delta", Data: json.RawMessage(`{"text":"w "}`), Time: time.Now()})
	}
	evs = append(evs, store.RunEvent{RunID: "old", Seq: 51, Type: "output", Data: json.RawMessage(`{"fullText":"…"}`), Time: time.Now()})
	if err := st.AppendRunEvents(ctx, evs); err != nil {
		t.Fatal(err)
	}
	e := startOn(t, st, newScript(-1))
	waitTimeout(&e.svc.bg, wait) // the start's background work: compacting what was left
	e.requireCompacted("old")
	rows, _ := st.RunEvents(ctx, "old", 0, 0)
	if len(rows) != 2 || rows[0].Seq != 50 || rows[1].Seq != 51 {
		t.Fatalf("rows after start: %v", rows)
	}
}
