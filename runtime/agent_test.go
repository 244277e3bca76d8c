package runtime

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/wispapp/wisp/runtime/llm"
	"github.com/wispapp/wisp/runtime/reply"
)

// step is one scripted model answer.
type step struct {
	text  []string
	think []string
	calls []llm.ToolCall
	err   error
}

// fakeProvider answers from a script and records the requests.
type fakeProvider struct {
	mu    sync.Mutex
	steps []step
	reqs  []llm.Request
	// always, when set, answers every request past the script.
	always *step
}

func (f *fakeProvider) Name() string { return "fake" }

func (f *fakeProvider) Stream(ctx context.Context, req llm.Request, on func(llm.Delta)) (llm.Response, error) {
	f.mu.Lock()
	f.reqs = append(f.reqs, req)
	var s step
	switch {
	case len(f.steps) > 0:
		s, f.steps = f.steps[0], f.steps[1:]
	case f.always != nil:
		s = *f.always
	default:
		f.mu.Unlock()
		return llm.Response{}, errors.New("script exhausted")
	}
	f.mu.Unlock()
	var resp llm.Response
	for _, t := range s.think {
		on(llm.Delta{Kind: llm.DeltaThinking, Text: t})
	}
	for _, t := range s.text {
		on(llm.Delta{Kind: llm.DeltaText, Text: t})
		resp.Text += t
	}
	if s.err != nil {
		return resp, s.err
	}
	for i := range s.calls {
		on(llm.Delta{Kind: llm.DeltaToolCall, ToolCall: &s.calls[i]})
	}
	resp.ToolCalls = s.calls
	resp.StopReason = "end_turn"
	if len(s.calls) > 0 {
		resp.StopReason = "tool_use"
	}
	resp.Usage = llm.Usage{InputTokens: 10, OutputTokens: 5}
	return resp, nil
}

func (f *fakeProvider) requests() []llm.Request {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]llm.Request(nil), f.reqs...)
}

func newTestAgent(t *testing.T, p llm.Provider, actions ...Action) *Agent {
	t.Helper()
	reg := NewRegistry()
	for _, a := range actions {
		if err := reg.Register(a); err != nil {
			t.Fatal(err)
		}
	}
	return New(Options{
		Provider: func() (llm.Provider, error) { return p, nil },
		Settings: func() Settings {
			return Settings{Character: Character{Name: "Wisp", System: "Be brief."}, Model: "m"}
		},
		Actions: reg,
		Logger:  slog.New(slog.DiscardHandler),
	})
}

func call(id, name, args string) llm.ToolCall {
	return llm.ToolCall{ID: id, Name: name, Arguments: json.RawMessage(args)}
}

// recorder collects emitted events.
type recorder struct {
	events []Event
	fulls  []string // the visible reply emitted with each event
	folds  []Fold
}

func (r *recorder) emit(ev Event, at Fold) {
	r.events = append(r.events, ev)
	r.fulls = append(r.fulls, at.Full)
	r.folds = append(r.folds, at)
}

func (r *recorder) types() []EventType {
	out := make([]EventType, len(r.events))
	for i, e := range r.events {
		out[i] = e.Type
	}
	return out
}

func musicAction() Action {
	return Action{
		Name: "PLAY_MUSIC", Description: "Play a song.",
		Parameters: json.RawMessage(`{"type":"object","properties":{"song":{"type":"string"}},"required":["song"]}`),
		Handler: func(ctx context.Context, c Call) (string, error) {
			var args struct{ Song string }
			if err := json.Unmarshal(c.Args, &args); err != nil {
				return "", err
			}
			c.Callback("🔍 Looking up track...", "")
			c.Callback("🔍 Searching for track...", MergeReplace)
			c.Callback("✨ Setting up playback...", "")
			c.Callback("Now playing: **"+args.Song+"**", "")
			return "playing " + args.Song, nil
		},
	}
}

func TestTurnTextOnly(t *testing.T) {
	p := &fakeProvider{steps: []step{{text: []string{"Hel", "lo", "..."}, think: []string{"hmm"}}}}
	a := newTestAgent(t, p)
	var rec recorder
	res, err := a.Turn(context.Background(), Input{
		History: []llm.Message{{Role: llm.RoleUser, Text: "earlier"}, {Role: llm.RoleAssistant, Text: "yes"}},
		Text:    "hi",
	}, rec.emit)
	if err != nil {
		t.Fatal(err)
	}
	if res.FullText != "Hello..." || res.Steps != 1 || res.StopReason != "end_turn" {
		t.Fatalf("result = %+v", res)
	}
	want := []EventType{EventThinking, EventThinking, EventTextDelta, EventTextDelta, EventTextDelta}
	if got := rec.types(); !reflect.DeepEqual(got, want) {
		t.Fatalf("events = %v, want %v", got, want)
	}
	if rec.events[1].Data != (Thinking{Complete: true}) {
		t.Fatalf("the reasoning is not closed before the text: %+v", rec.events[1].Data)
	}
	req := p.requests()[0]
	if len(req.Messages) != 3 || req.Messages[2].Text != "hi" || req.Model != "m" {
		t.Fatalf("request = %+v", req)
	}
	if !strings.Contains(req.System, "Be brief.") || !strings.Contains(req.System, "Your name is Wisp.") {
		t.Fatalf("system = %q", req.System)
	}
}

func TestTurnRunsActionsAndFeedsResultsBack(t *testing.T) {
	p := &fakeProvider{steps: []step{
		{text: []string{"Let me play that."}, calls: []llm.ToolCall{call("c1", "PLAY_MUSIC", `{"song":"Song"}`)}},
		{text: []string{"Enjoy!"}},
	}}
	a := newTestAgent(t, p, musicAction())
	var rec recorder
	res, err := a.Turn(context.Background(), Input{Text: "play Song"}, rec.emit)
	if err != nil {
		t.Fatal(err)
	}
	if want := "Let me play that.\n\nNow playing: **Song**\n\nEnjoy!"; res.FullText != want {
		t.Fatalf("fullText = %q, want %q", res.FullText, want)
	}
	wantHist := []string{"🔍 Looking up track...", "🔍 Searching for track...", "✨ Setting up playback...", "Now playing: **Song**"}
	if !reflect.DeepEqual(res.History, wantHist) {
		t.Fatalf("history = %q", res.History)
	}
	wantTypes := []EventType{EventTextDelta, EventToolStart, EventCallback, EventCallback, EventCallback, EventCallback, EventToolEnd, EventTextDelta}
	if got := rec.types(); !reflect.DeepEqual(got, wantTypes) {
		t.Fatalf("events = %v", got)
	}
	// Each event came with the reply as replaying the events so far rebuilds it: the
	// turn's own fold is the one its listeners use.
	var replay reply.Reply
	for i, ev := range rec.events {
		if at := Apply(&replay, ev); rec.folds[i] != at {
			t.Fatalf("event %d (%s) came with %+v, the replay says %+v", i, ev.Type, rec.folds[i], at)
		}
	}
	// The segments: text 0, the action's callback segment 1 (its text after each
	// callback), then text 2; the tool's end changes none.
	wantSegs := []int{0, 1, 1, 1, 1, 1, -1, 2}
	for i, at := range rec.folds {
		if at.Segment != wantSegs[i] {
			t.Errorf("event %d (%s): segment %d, want %d", i, rec.events[i].Type, at.Segment, wantSegs[i])
		}
	}
	if got := rec.folds[5].SegmentText; got != "Now playing: **Song**" {
		t.Errorf("the last callback's segment text = %q", got)
	}
	if last := rec.fulls[len(rec.fulls)-1]; last != res.FullText {
		t.Fatalf("last emitted reply %q, result %q", last, res.FullText)
	}
	reqs := p.requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests", len(reqs))
	}
	if len(reqs[0].Tools) != 1 || reqs[0].Tools[0].Name != "PLAY_MUSIC" {
		t.Fatalf("tools = %+v", reqs[0].Tools)
	}
	msgs := reqs[1].Messages
	last := msgs[len(msgs)-1]
	if last.Role != llm.RoleTool || last.ToolCallID != "c1" || last.Text != "playing Song" || last.IsError {
		t.Fatalf("tool message = %+v", last)
	}
	if asst := msgs[len(msgs)-2]; asst.Role != llm.RoleAssistant || len(asst.ToolCalls) != 1 {
		t.Fatalf("assistant message = %+v", asst)
	}
	if res.Usage.InputTokens != 20 || res.Usage.OutputTokens != 10 || res.Steps != 2 {
		t.Fatalf("usage/steps = %+v %d", res.Usage, res.Steps)
	}
}

func TestTurnActionFailures(t *testing.T) {
	panicky := Action{Name: "BOOM", Handler: func(context.Context, Call) (string, error) { panic("kaboom") }}
	failing := Action{Name: "FAIL", Handler: func(context.Context, Call) (string, error) { return "", errors.New("disk full") }}
	cases := []struct {
		name, args, wantErr string
	}{
		{"NOPE", `{}`, `there is no action named "NOPE"`},
		{"FAIL", `[1]`, "the arguments of FAIL must be a JSON object"},
		{"FAIL", `{}`, "disk full"},
		{"BOOM", `{}`, "action BOOM failed unexpectedly"},
	}
	for _, tc := range cases {
		t.Run(tc.name+tc.args, func(t *testing.T) {
			p := &fakeProvider{steps: []step{{calls: []llm.ToolCall{call("x", tc.name, tc.args)}}, {text: []string{"sorry"}}}}
			a := newTestAgent(t, p, panicky, failing)
			var rec recorder
			res, err := a.Turn(context.Background(), Input{Text: "go"}, rec.emit)
			if err != nil {
				t.Fatal(err)
			}
			var end ToolEnd
			for _, e := range rec.events {
				if e.Type == EventToolEnd {
					end = e.Data.(ToolEnd)
				}
			}
			if end.Error != tc.wantErr {
				t.Fatalf("tool error = %q, want %q", end.Error, tc.wantErr)
			}
			tool := p.requests()[1].Messages[2]
			if !tool.IsError || !strings.Contains(tool.Text, tc.wantErr) {
				t.Fatalf("tool message = %+v", tool)
			}
			if res.FullText != "sorry" {
				t.Fatalf("fullText = %q", res.FullText)
			}
		})
	}
}

func TestTurnStopsAtStepLimit(t *testing.T) {
	noop := Action{Name: "NOOP", Handler: func(context.Context, Call) (string, error) { return "ok", nil }}
	p := &fakeProvider{always: &step{text: []string{"again"}, calls: []llm.ToolCall{call("n", "NOOP", `{}`)}}}
	a := newTestAgent(t, p, noop)
	a.opts.MaxSteps = 3
	res, err := a.Turn(context.Background(), Input{Text: "loop"}, func(Event, Fold) {})
	if err != nil {
		t.Fatal(err)
	}
	if len(p.requests()) != 3 || res.StopReason != "max_steps" || res.Steps != 3 {
		t.Fatalf("requests=%d result=%+v", len(p.requests()), res)
	}
}

func TestTurnProviderErrorKeepsPartialReply(t *testing.T) {
	cut := &llm.Error{Kind: llm.KindStream, Provider: "openai"}
	p := &fakeProvider{steps: []step{{text: []string{"Half an "}, err: cut}}}
	res, err := newTestAgent(t, p).Turn(context.Background(), Input{Text: "x"}, func(Event, Fold) {})
	if !errors.Is(err, cut) {
		t.Fatalf("err = %v", err)
	}
	if res.FullText != "Half an " {
		t.Fatalf("partial = %q", res.FullText)
	}
}

func TestTurnWithoutProvider(t *testing.T) {
	a := New(Options{Logger: slog.New(slog.DiscardHandler)})
	if _, err := a.Turn(context.Background(), Input{Text: "x"}, func(Event, Fold) {}); !errors.Is(err, ErrNoProvider) {
		t.Fatalf("err = %v", err)
	}
}

func TestTurnCancelledDuringAction(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	wait := Action{Name: "WAIT", Handler: func(ctx context.Context, c Call) (string, error) {
		cancel()
		<-ctx.Done()
		return "", ctx.Err()
	}}
	p := &fakeProvider{steps: []step{{calls: []llm.ToolCall{call("w", "WAIT", `{}`)}}}}
	_, err := newTestAgent(t, p, wait).Turn(ctx, Input{Text: "x"}, func(Event, Fold) {})
	if !errors.Is(err, context.Canceled) || len(p.requests()) != 1 {
		t.Fatalf("err = %v after %d requests", err, len(p.requests()))
	}
}

func TestLateCallbackIsDropped(t *testing.T) {
	var saved CallbackFunc
	keep := Action{Name: "KEEP", Handler: func(_ context.Context, c Call) (string, error) {
		saved = c.Callback
		c.Callback("working", "")
		return "done", nil
	}}
	p := &fakeProvider{steps: []step{{calls: []llm.ToolCall{call("k", "KEEP", `{}`)}}, {text: []string{"ok"}}}}
	var rec recorder
	a := newTestAgent(t, p, keep)
	if _, err := a.Turn(context.Background(), Input{Text: "x"}, rec.emit); err != nil {
		t.Fatal(err)
	}
	n := len(rec.events)
	saved("too late", MergeAppend)
	if len(rec.events) != n {
		t.Fatal("a callback after the action returned was emitted")
	}
}

func TestRegistryRejectsBadActions(t *testing.T) {
	h := func(context.Context, Call) (string, error) { return "", nil }
	reg := NewRegistry()
	if err := reg.Register(Action{Name: "OK", Handler: h}); err != nil {
		t.Fatal(err)
	}
	bad := []Action{
		{Name: "", Handler: h},
		{Name: "has space", Handler: h},
		{Name: "OK", Handler: h},
		{Name: "NOHANDLER"},
		{Name: "SCHEMA", Handler: h, Parameters: json.RawMessage(`[`)},
	}
	for _, a := range bad {
		if err := reg.Register(a); err == nil {
			t.Errorf("Register(%q) accepted", a.Name)
		}
	}
	tools := reg.Tools()
	if len(tools) != 1 || string(tools[0].Parameters) != string(emptySchema) {
		t.Fatalf("tools = %+v", tools)
	}
}

func TestRegistryGroups(t *testing.T) {
	h := func(context.Context, Call) (string, error) { return "", nil }
	reg := NewRegistry()
	if err := reg.Register(Action{Name: "OK", Handler: h}); err != nil {
		t.Fatal(err)
	}
	names := func() []string {
		var out []string
		for _, tool := range reg.Tools() {
			out = append(out, tool.Name)
		}
		return out
	}
	err := reg.SetGroup("mcp", []Action{{Name: "a__x", Handler: h}, {Name: "OK", Handler: h}, {Name: "bad name", Handler: h}, {Name: "a__y", Handler: h}})
	if err == nil || !strings.Contains(err.Error(), "OK is already registered") || !strings.Contains(err.Error(), "bad name") {
		t.Errorf("SetGroup error = %v", err)
	}
	if got := strings.Join(names(), ","); got != "OK,a__x,a__y" {
		t.Errorf("tools = %s", got)
	}
	// A new set replaces the group's actions, and leaves the others.
	if err := reg.SetGroup("mcp", []Action{{Name: "b__z", Handler: h}}); err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(names(), ","); got != "OK,b__z" {
		t.Errorf("tools = %s", got)
	}
	if _, ok := reg.Get("a__x"); ok {
		t.Error("a removed action is still found")
	}
	if err := reg.SetGroup("mcp", nil); err != nil || strings.Join(names(), ",") != "OK" {
		t.Errorf("after emptying the group: %v, %v", names(), err)
	}
}

// hangingProvider sends one delta and then nothing until cancelled.
type hangingProvider struct{}

func (hangingProvider) Name() string { return "openai" }

func (hangingProvider) Stream(ctx context.Context, _ llm.Request, on func(llm.Delta)) (llm.Response, error) {
	on(llm.Delta{Kind: llm.DeltaText, Text: "Hm"})
	<-ctx.Done()
	return llm.Response{}, ctx.Err()
}

func TestSilentModelFailsTheTurn(t *testing.T) {
	a := newTestAgent(t, hangingProvider{})
	a.opts.IdleTimeout = 50 * time.Millisecond
	res, err := a.Turn(context.Background(), Input{Text: "x"}, func(Event, Fold) {})
	var le *llm.Error
	if !errors.As(err, &le) || le.Kind != llm.KindStream || !strings.Contains(err.Error(), "sent nothing for 50ms") {
		t.Fatalf("err = %v", err)
	}
	if res.FullText != "Hm" {
		t.Fatalf("partial = %q", res.FullText)
	}
}

// An action that is not available now (the shell action while shell access is off)
// is neither offered to the model nor run when asked for by name.
func TestUnavailableActionsAreUnknown(t *testing.T) {
	on := false
	shell := Action{Name: "RUN_SHELL", Available: func() bool { return on },
		Handler: func(context.Context, Call) (string, error) { return "ran", nil }}
	p := &fakeProvider{steps: []step{{calls: []llm.ToolCall{call("c1", "RUN_SHELL", `{}`)}}, {text: []string{"ok"}}}}
	a := newTestAgent(t, p, shell)
	var rec recorder
	if _, err := a.Turn(context.Background(), Input{Text: "go"}, rec.emit); err != nil {
		t.Fatal(err)
	}
	if tools := p.requests()[0].Tools; len(tools) != 0 {
		t.Fatalf("offered %v while unavailable", tools)
	}
	var end ToolEnd
	for _, ev := range rec.events {
		if d, ok := ev.Data.(ToolEnd); ok {
			end = d
		}
	}
	if !strings.Contains(end.Error, "no action named") {
		t.Fatalf("an unavailable action ran: %+v", end)
	}
	on = true
	if tools := a.Actions().Tools(); len(tools) != 1 || tools[0].Name != "RUN_SHELL" {
		t.Fatalf("available: %v", tools)
	}
}
