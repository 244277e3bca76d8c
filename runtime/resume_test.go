package runtime

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/wispapp/wisp/internal/jsonpatch"
	"github.com/wispapp/wisp/runtime/llm"
)

// TestResumeAfterPause pauses a turn in its first step's second call (as a restart
// would leave it: the turn's context cancelled while it waits), then resumes it from
// the log alone with a new agent: the paused call runs again without a second start,
// the next step gets exactly the messages an unbroken turn would have sent.
func TestResumeAfterPause(t *testing.T) {
	first := &fakeProvider{steps: []step{
		{text: []string{"Let me ", "look."}, think: []string{"hmm"}, calls: []llm.ToolCall{call("a", "LIST", `{}`), call("b", "ASK", `{"x":1}`), call("c", "LIST", `{}`)}},
	}}
	list := Action{Name: "LIST", Handler: func(ctx context.Context, c Call) (string, error) { return "listed " + c.ID, nil }}
	paused := make(chan struct{})
	askWaits := Action{Name: "ASK", Handler: func(ctx context.Context, c Call) (string, error) {
		if err := c.Patch(jsonpatch.Add("/asked", map[string]int{"times": 1})); err != nil {
			t.Error(err)
		}
		c.Report(Event{Type: EventToolStatus, Data: ToolStatus{Status: ToolWaiting}})
		c.Report(Event{Type: EventRunPaused, Data: RunPaused{Reason: "needs approval", ApprovalID: "ap1"}})
		close(paused)
		<-ctx.Done()
		return "", ctx.Err()
	}}
	ctx, cancel := context.WithCancel(context.Background())
	go func() { <-paused; cancel() }()
	var log recorder
	_, err := newTestAgent(t, first, list, askWaits).Turn(ctx, Input{Text: "go"}, log.emit)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("turn = %v, want cancelled", err)
	}
	// What a restart keeps: the log up to the pause (the interrupted call's end is not
	// written by a shutdown that keeps the pause).
	var kept []Event
	for _, ev := range log.events {
		kept = append(kept, ev)
		if ev.Type == EventRunPaused {
			break
		}
	}
	kept = roundTrip(t, kept)
	p := kept[len(kept)-1].Data.(RunPaused)
	if len(p.Pending) != 2 || p.PendingToolCallID != p.Pending[0].WispID || p.Pending[0].ID != "b" ||
		p.PendingToolName != "ASK" || p.StepNo != 1 || p.Pending[1].ID != "c" {
		t.Fatalf("pause = %+v", p)
	}
	// Wisp names every call by an id of its own, never the provider's.
	wisp := map[string]string{}
	for _, c := range p.Step.ToolCalls {
		if !strings.HasPrefix(c.WispID, "call_") || c.WispID == c.ID || wisp[c.ID] != "" {
			t.Fatalf("calls of the paused step: %+v", p.Step.ToolCalls)
		}
		wisp[c.ID] = c.WispID
	}

	second := &fakeProvider{steps: []step{{text: []string{" Done."}}}}
	askRuns := Action{Name: "ASK", Handler: func(ctx context.Context, c Call) (string, error) {
		c.Callback("ran", MergeReplace)
		// The state from before the pause is there to patch.
		if err := c.Patch(jsonpatch.Replace("/asked/times", 2)); err != nil {
			t.Error(err)
		}
		return "approved and ran", nil
	}}
	var resumed recorder
	res, err := newTestAgent(t, second, list, askRuns).Resume(context.Background(),
		ResumeInput{Text: "go", Log: kept}, resumed.emit)
	if err != nil {
		t.Fatal(err)
	}
	var types []EventType
	for _, ev := range resumed.events {
		types = append(types, ev.Type)
	}
	want := []EventType{EventCallback, EventStatePatch, EventToolEnd, EventToolStart, EventToolEnd, EventTextDelta}
	if !reflect.DeepEqual(types, want) {
		t.Fatalf("resumed events = %v, want %v", types, want)
	}
	if got := string(StateOf(append(kept, resumed.events...))); got != `{"asked":{"times":2}}` {
		t.Fatalf("state after the resume = %s", got)
	}
	reqs := second.requests()
	if len(reqs) != 1 {
		t.Fatalf("%d model calls, want 1", len(reqs))
	}
	wantMsgs := []llm.Message{
		{Role: llm.RoleUser, Text: "go"},
		{Role: llm.RoleAssistant, Text: "Let me look.", Thinking: nil, ToolCalls: p.Step.ToolCalls},
		{Role: llm.RoleTool, ToolCallID: "a", Text: "listed " + wisp["a"]},
		{Role: llm.RoleTool, ToolCallID: "b", Text: "approved and ran"},
		{Role: llm.RoleTool, ToolCallID: "c", Text: "listed " + wisp["c"]},
	}
	if got := reqs[0].Messages; !reflect.DeepEqual(got, wantMsgs) {
		t.Fatalf("messages after resume:\n got %+v\nwant %+v", got, wantMsgs)
	}
	if res.FullText != "Let me look.\n\nran\n\n Done." || res.Steps != 2 {
		t.Fatalf("result = %q, %d steps", res.FullText, res.Steps)
	}
}

func TestResumeWithoutPause(t *testing.T) {
	_, err := newTestAgent(t, &fakeProvider{}).Resume(context.Background(),
		ResumeInput{Text: "go", Log: []Event{{Type: EventTextDelta, Data: TextDelta{Text: "x"}}}}, func(Event, Fold) {})
	if !errors.Is(err, ErrNoPause) {
		t.Fatalf("resume = %v, want ErrNoPause", err)
	}
}

// roundTrip passes events through their JSON, as the run log stores them.
func roundTrip(t *testing.T, evs []Event) []Event {
	t.Helper()
	out := make([]Event, 0, len(evs))
	for _, ev := range evs {
		data, err := json.Marshal(ev.Data)
		if err != nil {
			t.Fatal(err)
		}
		back, err := DecodeEvent(string(ev.Type), data)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, back)
	}
	return out
}
