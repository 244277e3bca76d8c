package dialect

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/wispapp/wisp/internal/jsonpatch"
	"github.com/wispapp/wisp/runtime"
	"github.com/wispapp/wisp/runtime/llm"
)

// samples has one event of every runtime event type.
var samples = map[runtime.EventType]any{
	runtime.EventTextDelta:    runtime.TextDelta{Text: "Hi"},
	runtime.EventThinking:     runtime.Thinking{Text: "hmm"},
	runtime.EventToolStart:    runtime.ToolStart{CallID: "c1", Name: "PLAY", Arguments: json.RawMessage(`{"q":1}`)},
	runtime.EventCallback:     runtime.Callback{CallID: "c1", Text: "Playing"},
	runtime.EventToolEnd:      runtime.ToolEnd{CallID: "c1", Name: "PLAY", Result: "ok"},
	runtime.EventError:        runtime.Error{Message: "boom"},
	runtime.EventOutput:       runtime.Output{FullText: "Hi", Usage: llm.Usage{InputTokens: 3, OutputTokens: 2}, MessageID: "m1"},
	runtime.EventInterrupted:  runtime.Interrupted{Reason: "restart"},
	runtime.EventToolStatus:   runtime.ToolStatus{CallID: "c1", Name: "PLAY", Status: runtime.ToolExecuting},
	runtime.EventRunPaused:    runtime.RunPaused{Reason: "approval", PendingToolName: "SHELL", PendingToolCallID: "c2", ApprovalID: "a1", Approval: json.RawMessage(`{}`)},
	runtime.EventRunResumed:   runtime.RunResumed{ApprovalID: "a1", Decision: "approved"},
	runtime.EventStreamResync: runtime.StreamResync{Reason: runtime.ResyncCrashRecovery, FromSequence: 4},
	runtime.EventCustom:       runtime.Custom{CallID: "c1", Name: "progress", Data: json.RawMessage(`{"n":1}`)},
	runtime.EventStatePatch:   runtime.StatePatch{Patches: []jsonpatch.Op{{Op: "add", Path: "/a", Value: json.RawMessage("1")}}},
	runtime.EventSummaryStart: runtime.SummaryStart{Summary: runtime.SummaryInfo{ID: "s1", ThroughID: "m9", Covers: 10, Status: "streaming"}},
	runtime.EventSummaryDelta: runtime.SummaryDelta{SummaryID: "s1", Text: "The user"},
	runtime.EventSummaryEnd:   runtime.SummaryEnd{Summary: runtime.SummaryInfo{ID: "s1", ThroughID: "m9", Covers: 10, Text: "The user", Status: "done"}},
	runtime.EventSpeech:       runtime.Speech{Index: 2, Text: "Hi there.", Segment: 0, Start: 0, End: 9, Final: true},
}

// encoders are a fresh encoder of every dialect.
func encoders() map[string]Encoder {
	return map[string]Encoder{
		"eliza":         NewEliza(),
		"delta":         NewDelta(),
		"chunks":        NewChunks(),
		"seed003":       NewSeed003("conv", "run"),
		"seed003answer": NewSeed003Answer("conv", "run"),
	}
}

func event(kind runtime.EventType) Event {
	at := runtime.Fold{Full: "Hi", Segment: -1}
	switch kind {
	case runtime.EventTextDelta, runtime.EventToolStart:
		at.Segment = 0
	case runtime.EventCallback:
		at.Segment, at.SegmentText = 0, "Playing"
	}
	return Event{Seq: 1, Time: time.UnixMilli(1), Event: runtime.Event{Type: kind, Data: samples[kind]}, At: at, Run: "run", Agent: "Wisp"}
}

// Every encoder either encodes every runtime event type, as JSON or SSE text, or says
// it skips it: a new event type without a case in some encoder fails here.
func TestEveryEncoderHandlesEveryEventType(t *testing.T) {
	for _, kind := range runtime.EventKinds {
		if samples[kind] == nil {
			t.Fatalf("no sample event of type %q: add one to samples", kind)
		}
		for name, enc := range encoders() {
			out, err := enc.Encode([]byte("prefix"), event(kind))
			switch {
			case errors.Is(err, ErrSkip):
				if string(out) != "prefix" {
					t.Errorf("%s skips %s but wrote %q", name, kind, out)
				}
			case err != nil:
				t.Errorf("%s cannot encode %s: %v", name, kind, err)
			case !strings.HasPrefix(string(out), "prefix") || len(out) == len("prefix"):
				t.Errorf("%s encoded %s as %q", name, kind, out)
			case !strings.HasPrefix(name, "seed003") || name == "seed003answer":
				if !json.Valid(out[len("prefix"):]) {
					t.Errorf("%s encoded %s as invalid JSON %q", name, kind, out)
				}
			}
		}
	}
}

// An event type no encoder knows is an error, not a silent skip.
func TestUnknownEventTypeIsAnError(t *testing.T) {
	ev := Event{Event: runtime.Event{Type: "new_kind", Data: json.RawMessage(`{}`)}}
	for name, enc := range encoders() {
		if _, err := enc.Encode(nil, ev); err == nil || errors.Is(err, ErrSkip) {
			t.Errorf("%s: %v, want an unknown-type error", name, err)
		}
	}
}

// Seed 001's closing thinking chunk carries the whole block, also when the block
// began before a resumed stream's starting point.
func TestChunksThinkingCompleteCarriesTheBlock(t *testing.T) {
	think := func(text string, complete bool) Event {
		return Event{Event: runtime.Event{Type: runtime.EventThinking, Data: runtime.Thinking{Text: text, Complete: complete}}}
	}
	c := NewChunks()
	c.Observe(think("Let me ", false))
	var got []ThinkingChunk
	for _, ev := range []Event{think("see.", false), think("", true), think("Again", false), think("", true)} {
		out, err := c.Encode(nil, ev)
		if err != nil {
			t.Fatal(err)
		}
		var ch ThinkingChunk
		if err := json.Unmarshal(out, &ch); err != nil {
			t.Fatal(err)
		}
		got = append(got, ch)
	}
	want := []string{"see.", "Let me see.", "Again", "Again"}
	for i, ch := range got {
		if ch.Content != want[i] || ch.IsComplete != (i%2 == 1) {
			t.Errorf("chunk %d: %+v, want content %q", i, ch, want[i])
		}
	}
}

// The seed-003 answer is complete at the run's end or when it waits for an approval.
func TestSeed003Answer(t *testing.T) {
	a := NewSeed003Answer("conv", "run")
	for _, kind := range []runtime.EventType{runtime.EventTextDelta, runtime.EventToolStart, runtime.EventToolEnd} {
		if _, err := a.Encode(nil, event(kind)); !errors.Is(err, ErrSkip) {
			t.Fatalf("%s: %v, want ErrSkip before the end", kind, err)
		}
	}
	out, err := a.Encode(nil, event(runtime.EventRunPaused))
	if err != nil {
		t.Fatal(err)
	}
	var ans Answer003
	if err := json.Unmarshal(out, &ans); err != nil {
		t.Fatal(err)
	}
	if ans.Status != "waiting_for_approval" || ans.Message != "Hi" || len(ans.Actions) != 3 {
		t.Errorf("answer %+v", ans)
	}
}

// The delta and seed 000 dialects send a summary's frames as the contract names
// them; seed 001 and 003 have none.
func TestSummaryFrames(t *testing.T) {
	want := map[runtime.EventType]string{
		runtime.EventSummaryStart: `{"type":"summary_start","summary":{"id":"s1","conversationId":"","throughId":"m9","covers":10,"fromAt":"","throughAt":"","text":"","status":"streaming","runId":"","tokens":0,"createdAt":""}}`,
		runtime.EventSummaryDelta: `{"type":"summary_delta","summaryId":"s1","text":"The user"}`,
		runtime.EventSummaryEnd:   `{"type":"summary_end","summary":{"id":"s1","conversationId":"","throughId":"m9","covers":10,"fromAt":"","throughAt":"","text":"The user","status":"done","runId":"","tokens":0,"createdAt":""}}`,
	}
	for kind, frame := range want {
		for _, name := range []string{"eliza", "delta"} {
			out, err := encoders()[name].Encode(nil, event(kind))
			if err != nil || string(out) != frame {
				t.Errorf("%s %s: %s %v, want %s", name, kind, out, err, frame)
			}
		}
		for _, name := range []string{"chunks", "seed003"} {
			if _, err := encoders()[name].Encode(nil, event(kind)); !errors.Is(err, ErrSkip) {
				t.Errorf("%s %s: %v, want a skip", name, kind, err)
			}
		}
	}
}

// A clause to speak is the speech frame in the delta and seed 000 dialects, a custom
// chunk in seed 001's, and nothing in seed 003's.
func TestSpeechFrames(t *testing.T) {
	frame := `{"type":"speech","index":2,"text":"Hi there.","segment":0,"start":0,"end":9,"final":true}`
	for _, name := range []string{"eliza", "delta"} {
		out, err := encoders()[name].Encode(nil, event(runtime.EventSpeech))
		if err != nil || string(out) != frame {
			t.Errorf("%s: %s %v, want %s", name, out, err, frame)
		}
	}
	out, err := encoders()["chunks"].Encode(nil, event(runtime.EventSpeech))
	want := `{"type":"custom","agentId":"run","agentType":"wisp","timestamp":1,"eventName":"speech","data":{"index":2,"text":"Hi there.","segment":0,"start":0,"end":9,"final":true}}`
	if err != nil || string(out) != want {
		t.Errorf("chunks: %s %v, want %s", out, err, want)
	}
	for _, name := range []string{"seed003", "seed003answer"} {
		if _, err := encoders()[name].Encode(nil, event(runtime.EventSpeech)); !errors.Is(err, ErrSkip) {
			t.Errorf("%s: %v, want a skip", name, err)
		}
	}
}

// A speech frame between two tokens keeps seed 000's fullText right.
func TestElizaSpeechBetweenTokens(t *testing.T) {
	e := NewEliza()
	tok := func(full, text string) Event {
		return Event{Event: runtime.Event{Type: runtime.EventTextDelta, Data: runtime.TextDelta{Text: text}}, At: runtime.Fold{Full: full, Segment: 0}}
	}
	if _, err := e.Encode(nil, tok("Hi.", "Hi.")); err != nil {
		t.Fatal(err)
	}
	if _, err := e.Encode(nil, event(runtime.EventSpeech)); err != nil {
		t.Fatal(err)
	}
	out, _ := e.Encode(nil, tok("Hi. \"Yes\"", ` "Yes"`))
	var f struct{ FullText string }
	if err := json.Unmarshal(out, &f); err != nil || f.FullText != `Hi. "Yes"` {
		t.Errorf("token after speech: %s", out)
	}
}
