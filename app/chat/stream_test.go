package chat

import (
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/wispapp/wisp/app/dialect"
	"github.com/wispapp/wisp/app/wire"
	"github.com/wispapp/wisp/runtime"
)

// musicScript is a reply with text, an action whose status line is replaced, and
// more text; the turn holds before the callbacks.
func musicScript() *scriptAgent {
	return newScript(3,
		text("Hello"), text(", world"), toolStart("c1", "PLAY"),
		callback("c1", "Searching…"), callback("c1", "Playing"), toolEnd("c1", "PLAY", "ok"), text("Done."))
}

// The frames of a live run, a resumed one and the same run read back from disk are
// the same, and every frame's fullText is the reply at that point.
func TestSubscribeLiveResumeAndStored(t *testing.T) {
	agent := musicScript()
	e := newEnv(t, agent)
	run := e.send(e.conversation(), "play something")

	live := subscribe(t, e.svc, run.ID, 0)
	<-agent.held
	first := next(t, live, 3) // what the turn said before it held
	if first[0].Seq != 1 || first[2].Seq != 3 || first[2].decode()["type"] != "tool_start" {
		t.Fatalf("first frames %v", first)
	}
	if text, seq, ended := run.snapshot(); text != "Hello, world" || seq != 3 || ended {
		t.Fatalf("snapshot during the run: %q at %d ended=%v", text, seq, ended)
	}
	snap, err := e.svc.Snapshot(context.Background(), run.ConversationID)
	if err != nil || snap.Status != StatusActive || snap.ActiveRun == nil || snap.ActiveRun.ID != run.ID || snap.StreamSequence != 3 ||
		snap.Messages[len(snap.Messages)-1].Text != "Hello, world" {
		t.Fatalf("conversation snapshot during the run: %+v, %v", snap, err)
	}
	afterSnap := subscribe(t, e.svc, run.ID, snap.StreamSequence) // resumes exactly after what it shows
	resumed := subscribe(t, e.svc, run.ID, 2)                     // a client that saw events 1 and 2
	close(agent.release)
	all := append(first, rest(t, live)...)
	if got := rest(t, afterSnap); len(got) != len(all)-3 || got[0].Seq != 4 {
		t.Fatalf("after the snapshot: %v", got)
	}
	out := waitRun(t, run)
	if out.Status != StatusEnded || out.FullText != "Hello, world\n\nPlaying\n\nDone." {
		t.Fatalf("outcome %+v", out)
	}

	wantFull := []string{"Hello", "Hello, world", "", "Hello, world\n\nSearching…", "Hello, world\n\nPlaying", "",
		"Hello, world\n\nPlaying\n\nDone.", "Hello, world\n\nPlaying\n\nDone."}
	if len(all) != len(wantFull) {
		t.Fatalf("%d frames: %v", len(all), all)
	}
	for i, f := range all {
		m := f.decode()
		if f.Seq != int64(i+1) {
			t.Errorf("frame %d has seq %d", i, f.Seq)
		}
		if want := wantFull[i]; want != "" && m["fullText"] != want {
			t.Errorf("frame %d (%v) fullText %q, want %q", i, m["type"], m["fullText"], want)
		}
	}
	done := all[len(all)-1].decode()
	if done["type"] != "done" || done["runId"] != run.ID || done["messageId"] != run.ReplyMessageID ||
		!reflect.DeepEqual(done["actionCallbackHistory"], []any{"Searching…", "Playing"}) {
		t.Fatalf("done %v", done)
	}
	if got := rest(t, resumed); !reflect.DeepEqual(got, all[2:]) {
		t.Fatalf("resumed after 2:\n%v\nwant\n%v", got, all[2:])
	}

	// The run is over: now it is read from the log on disk, folded once on load, and
	// compacted: "Hello" and ", world" are one event numbered 2, so a client from 0
	// gets one frame for both, and one that saw event 1 gets only ", world".
	e.waitCompacted(run)
	merged := frame{2, `{"type":"token","text":"Hello, world","fullText":"Hello, world"}`}
	if got := rest(t, subscribe(t, e.svc, run.ID, 0)); !reflect.DeepEqual(got, append([]frame{merged}, all[2:]...)) {
		t.Fatalf("stored:\n%v\nlive:\n%v", got, all)
	}
	rest1 := frame{2, `{"type":"token","text":", world","fullText":"Hello, world"}`}
	if got := rest(t, subscribe(t, e.svc, run.ID, 1)); !reflect.DeepEqual(got, append([]frame{rest1}, all[2:]...)) {
		t.Fatalf("stored after 1: %v", got)
	}
	if got := rest(t, subscribe(t, e.svc, run.ID, 5)); !reflect.DeepEqual(got, all[5:]) {
		t.Fatalf("stored after 5: %v", got)
	}
	if got := rest(t, subscribe(t, e.svc, run.ID, 99)); len(got) != 0 {
		t.Fatalf("after the last event: %v", got)
	}
}

func TestSubscribeUnknownRun(t *testing.T) {
	e := newEnv(t, musicScript())
	if _, err := e.svc.Subscribe(t.Context(), "nope", 0, dialect.NewEliza()); err != errRunNotFound {
		t.Fatalf("got %v", err)
	}
}

// A stopped run ends with an interrupted error frame; what it said is kept, and the
// display rows close its open tool call.
func TestCancelledRunKeepsWhatItSaid(t *testing.T) {
	agent := musicScript()
	e := newEnv(t, agent)
	conv := e.conversation()
	run := e.send(conv, "play")
	<-agent.held
	if err := e.svc.CancelRun(t.Context(), run.ID); err != nil {
		t.Fatal(err)
	}
	frames := rest(t, subscribe(t, e.svc, run.ID, 0))
	last := frames[len(frames)-1].decode()
	if last["type"] != "error" || last["interrupted"] != true || !strings.Contains(last["message"].(string), "stopped by the user") {
		t.Fatalf("last frame %v", last)
	}
	list, err := e.svc.Messages(t.Context(), conv, Page{})
	msgs := list.Messages
	if err != nil {
		t.Fatal(err)
	}
	if n := len(msgs); n != 2 || msgs[1].Text != "Hello, world" || msgs[1].Status != StatusInterrupted {
		t.Fatalf("messages %+v", msgs)
	}
	if err := e.svc.CancelRun(t.Context(), run.ID); err == nil {
		t.Fatal("cancelled twice")
	}
	var statuses []string
	for _, f := range e.frames.ofType("display-message-updated") {
		statuses = append(statuses, string(wire.JSON(f)))
	}
	if got := strings.Join(statuses, "\n"); !strings.Contains(got, `"status":"interrupted"`) {
		t.Fatalf("the tool row was not closed:\n%s", got)
	}
}

// A run publishes its display rows and its heartbeats to the Events sink, never to a
// hub: the user's bubble, the text before the action, the action's row through its
// states, its result and the closing text; thinking, replying, sent.
func TestRunPublishesDisplayRowsAndHeartbeats(t *testing.T) {
	agent := musicScript()
	close(agent.release)
	e := newEnv(t, agent)
	waitRun(t, e.send(e.conversation(), "play"))
	e.svc.Stop() // waits for the run's goroutine, which says "sent" after the run ended
	var saved []string
	for _, f := range e.frames.ofType(wire.TypeDisplayMessageSaved) {
		saved = append(saved, string(f.(wire.DisplayMessageChanged).Message.ContentType))
	}
	if got := strings.Join(saved, " "); got != "text text tool_call tool_result text" {
		t.Fatalf("saved rows: %s", got)
	}
	var states []string
	for _, f := range e.frames.ofType(wire.TypeDisplayMessageUpdated) {
		states = append(states, string(f.(wire.DisplayMessageChanged).Message.Status))
	}
	if got := strings.Join(states, " "); got != "executing executing completed" {
		t.Fatalf("tool row states: %s", got)
	}
	var beats []string
	for _, f := range e.frames.ofType(wire.TypeHeartbeatEvent) {
		var p wire.TurnHeartbeat
		if err := json.Unmarshal(f.(wire.Envelope).Payload, &p); err != nil {
			t.Fatal(err)
		}
		beats = append(beats, string(p.Status))
	}
	if got := strings.Join(beats, " "); got != "thinking replying sent" {
		t.Fatalf("heartbeats: %s", got)
	}
}

// Seed 001's closing thinking chunk carries the whole block, also from a compacted
// log resumed inside the block.
func TestChunksThinkingBlockAfterCompaction(t *testing.T) {
	think := func(s string, complete bool) runtime.Event {
		return runtime.Event{Type: runtime.EventThinking, Data: runtime.Thinking{Text: s, Complete: complete}}
	}
	e := newEnv(t, newScript(-1, think("Let ", false), think("me ", false), think("see.", false), think("", true), text("Hi")))
	run := e.send(e.conversation(), "hi")
	waitRun(t, run)
	e.waitCompacted(run)
	for _, after := range []int64{0, 1, 2} {
		var last map[string]any
		for _, f := range rest(t, subscribeIn(t, e.svc, run.ID, after, dialect.NewChunks())) {
			if m := f.decode(); m["type"] == "thinking" {
				last = m
			}
		}
		if last["isComplete"] != true || last["content"] != "Let me see." {
			t.Errorf("after %d: the closing chunk is %v", after, last)
		}
	}
}
