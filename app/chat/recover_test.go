package chat

import (
	"context"
	"reflect"
	"testing"
	"time"

	"github.com/wispapp/wisp/app/store"
	"github.com/wispapp/wisp/app/store/storetest"
	"github.com/wispapp/wisp/runtime"
)

// crashedRun leaves in st what a process killed mid-reply leaves: an active run with
// its events so far (and no reply message).
func crashedRun(t *testing.T, st *store.Store, convID, runID string, events ...runtime.Event) {
	t.Helper()
	ctx := context.Background()
	at := time.Now().Add(-time.Minute)
	if err := st.CreateRun(ctx, store.Run{ID: runID, ConversationID: convID, Status: store.RunActive, StartedAt: at}); err != nil {
		t.Fatal(err)
	}
	rows := make([]store.RunEvent, len(events))
	for i, ev := range events {
		rows[i] = store.RunEvent{RunID: runID, Seq: int64(i + 1), Type: string(ev.Type), Data: encodeEvent(ev), Time: at}
	}
	if err := st.AppendRunEvents(ctx, rows); err != nil {
		t.Fatal(err)
	}
}

// A run a crash left active is closed at the next start: cut mid-reply, it gets a
// run_interrupted event after its last one and its reply so far is saved; ended on
// disk but not in its record, it is finished as its final event says.
func TestStartRecoversRunsACrashLeftActive(t *testing.T) {
	ctx := context.Background()
	st := storetest.Open(t, "conv")
	crashedRun(t, st, "conv", "cut", text("Half "), toolStart("c1", "PLAY"), callback("c1", "Searching…"))
	crashedRun(t, st, "conv", "done", text("All of it."),
		runtime.Event{Type: runtime.EventOutput, Data: runtime.Output{FullText: "All of it."}})

	e := startOn(t, st, newScript(-1))

	cut, err := st.Run(ctx, "cut")
	if err != nil || cut.Status != StatusInterrupted || cut.Error != recoverReason {
		t.Fatalf("cut run %+v %v", cut, err)
	}
	events, _ := st.RunEvents(ctx, "cut", 0, 0)
	if n := len(events); n != 5 || events[3].Type != string(runtime.EventStreamResync) ||
		events[4].Seq != 5 || events[4].Type != string(runtime.EventInterrupted) {
		t.Fatalf("cut run's log %+v", events)
	}
	resync, err := runtime.DecodeEvent(events[3].Type, events[3].Data)
	if err != nil || resync.Data != (runtime.StreamResync{Reason: runtime.ResyncCrashRecovery, FromSequence: 3, MessageCount: 3}) {
		t.Fatalf("stream_resync = %+v, %v", resync, err)
	}
	done, _ := st.Run(ctx, "done")
	if done.Status != StatusEnded {
		t.Fatalf("done run %+v", done)
	}
	list, err := e.svc.Messages(ctx, "conv", Page{})
	msgs := list.Messages
	if err != nil {
		t.Fatal(err)
	}
	byRun := map[string]string{}
	for _, m := range msgs {
		byRun[m.RunID] = m.Text + " [" + string(m.Status) + "]"
	}
	want := map[string]string{"cut": "Half \n\nSearching… [interrupted]", "done": "All of it. [ended]"}
	if !reflect.DeepEqual(byRun, want) {
		t.Fatalf("saved replies %v, want %v", byRun, want)
	}
	// The cut run reads back like any interrupted one.
	frames := rest(t, subscribe(t, e.svc, "cut", 0))
	if last := frames[len(frames)-1].decode(); len(frames) != 5 || frames[3].decode()["type"] != "stream_resync" || last["interrupted"] != true {
		t.Fatalf("cut run's frames %v", frames)
	}
	// A second start finds nothing left to recover.
	e.svc.Stop()
	startOn(t, st, newScript(-1))
	if events, _ := st.RunEvents(ctx, "cut", 0, 0); len(events) != 5 {
		t.Fatalf("recovered twice: %d events", len(events))
	}
}

// A crash leaves the run's cards as they were (a command "executing" or "waiting"
// for good): recovery closes its open calls' cards as interrupted and says why in
// the conversation, and leaves the calls that ended alone.
func TestRecoveryClosesTheRunsOpenCards(t *testing.T) {
	ctx := context.Background()
	st := storetest.Open(t, "conv")
	now := time.Now()
	crashedRun(t, st, "conv", "cut", toolStart("done", "PLAY"), toolEnd("done", "PLAY", "ok"), toolStart("open", "RUN_SHELL"))
	for id, status := range map[string]string{"done": "completed", "open": "executing"} {
		if _, err := st.SaveDisplayMessage(ctx, store.DisplayMessage{ID: "dm-" + id, ConversationID: "conv", RunID: "cut",
			MessageType: "assistant", ContentType: "tool_call", Content: []byte(`{"callId":"` + id + `"}`), Status: status,
			ToolCallID: id, CreatedAt: now, UpdatedAt: now}); err != nil {
			t.Fatal(err)
		}
	}
	startOn(t, st, newScript(-1))
	rows, err := st.DisplayMessages(ctx, "conv", 100)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, r := range rows {
		switch r.ContentType {
		case "tool_call":
			got[r.ToolCallID] = r.Status
		case "notification":
			got["notification"] = string(r.Content)
		}
	}
	want := map[string]string{"done": "completed", "open": "interrupted",
		"notification": `{"text":"The reply was interrupted: ` + recoverReason + `"}`}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("cards after recovery %v, want %v", got, want)
	}
}

// A crash may leave deltas the log writer merged in one commit ({text, cuts}, numbered
// like the last): the resync counts each of them, and the reply keeps their text.
func TestRecoverCountsMergedDeltas(t *testing.T) {
	ctx := context.Background()
	st := storetest.Open(t, "conv")
	at := time.Now().Add(-time.Minute)
	if err := st.CreateRun(ctx, store.Run{ID: "cut", ConversationID: "conv", Status: store.RunActive, StartedAt: at}); err != nil {
		t.Fatal(err)
	}
	rows := []store.RunEvent{
		{RunID: "cut", Seq: 3, Type: string(runtime.EventTextDelta), Data: []byte(`{"text":"Hi there","cuts":[2,1,5]}`), Time: at},
		{RunID: "cut", Seq: 4, Type: string(runtime.EventTextDelta), Data: []byte(`{"text":"!"}`), Time: at},
	}
	if err := st.AppendRunEvents(ctx, rows); err != nil {
		t.Fatal(err)
	}
	e := startOn(t, st, newScript(-1))
	// The log's deltas may be compacted meanwhile (the recovered run has ended): the
	// resync and the end come after them whatever their rows.
	events, _ := st.RunEvents(ctx, "cut", 0, 0)
	n := len(events)
	if n < 3 || events[n-2].Seq != 5 || events[n-2].Type != string(runtime.EventStreamResync) || events[n-1].Seq != 6 {
		t.Fatalf("cut run's log %+v", events)
	}
	resync, err := runtime.DecodeEvent(events[n-2].Type, events[n-2].Data)
	if err != nil || resync.Data != (runtime.StreamResync{Reason: runtime.ResyncCrashRecovery, FromSequence: 4, MessageCount: 4}) {
		t.Fatalf("stream_resync = %+v, %v", resync, err)
	}
	list, err := e.svc.Messages(ctx, "conv", Page{})
	if err != nil || len(list.Messages) != 1 || list.Messages[0].Text != "Hi there!" {
		t.Fatalf("messages %+v, %v", list.Messages, err)
	}
}
