package mcptool

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/wispapp/wisp/app/approval"
	"github.com/wispapp/wisp/app/store"
	"github.com/wispapp/wisp/app/store/storetest"
	"github.com/wispapp/wisp/app/wire"
	"github.com/wispapp/wisp/mcp"
	"github.com/wispapp/wisp/runtime"
)

type fakeCaller struct {
	res      mcp.Result
	err      error
	progress []mcp.Progress
	got      json.RawMessage
}

func (f *fakeCaller) Call(_ context.Context, _, _ string, args json.RawMessage, progress func(mcp.Progress)) (mcp.Result, error) {
	f.got = args
	for _, p := range f.progress {
		progress(p)
	}
	return f.res, f.err
}

// approvals is a real approval service on a fresh database holding the run the
// calls belong to; granted allows calc.add for good.
func approvals(t *testing.T, granted bool) (*approval.Service, *store.Store) {
	t.Helper()
	st := storetest.Open(t, "c", "r1")
	if granted {
		if err := st.AddGrants(context.Background(), store.GrantMCP, []string{"calc.add"}, time.Now()); err != nil {
			t.Fatal(err)
		}
	}
	return approval.New(approval.Options{Store: st, Events: nopEvents{}}), st
}

type nopEvents struct{}

func (nopEvents) Publish(wire.Frame) {}

// clock advances by step each time it is read.
func clock(step time.Duration) func() time.Time {
	t := time.Unix(0, 0)
	return func() time.Time { t = t.Add(step); return t }
}

// run calls the tool's action as the agent would; paused, when set, hears the pause
// of a call no grant covers (and decides it).
func run(t *testing.T, caller *fakeCaller, appr *approval.Service, args string, paused func(runtime.RunPaused)) ([]string, string, error) {
	t.Helper()
	tool := mcp.Tool{Server: "calc", Name: "add", Action: "calc__add", Description: "Adds",
		InputSchema: json.RawMessage(`{"properties":{"a":{"type":"number"}}}`), Annotations: &sdk.ToolAnnotations{ReadOnlyHint: true}}
	acts := Actions([]mcp.Tool{tool}, Options{Caller: caller, Approvals: appr, Now: clock(100 * time.Millisecond)})
	if len(acts) != 1 || acts[0].Name != "calc__add" || !strings.Contains(acts[0].Description, `MCP server "calc"`) {
		t.Fatalf("actions = %+v", acts)
	}
	var shown []string
	call := runtime.Call{ID: "c1", Args: json.RawMessage(args), RunID: "r1", ConversationID: "c",
		Callback: func(text string, _ runtime.Merge) { shown = append(shown, text) },
		Report: func(ev runtime.Event) {
			if p, ok := ev.Data.(runtime.RunPaused); ok {
				if paused == nil {
					t.Errorf("a granted call paused: %+v", p)
					return
				}
				go paused(p)
			}
		}}
	out, err := acts[0].Handler(context.Background(), call)
	return shown, out, err
}

func TestGrantedCallShowsProgressAndAnswers(t *testing.T) {
	caller := &fakeCaller{res: mcp.Result{Text: "5"}, progress: []mcp.Progress{{Progress: 1, Total: 4, Message: "one"}, {Progress: 2, Total: 4}, {Progress: 3, Total: 4}, {Progress: 7, Message: "`seven`"}}}
	appr, _ := approvals(t, true)
	shown, out, err := run(t, caller, appr, `{"a":2}`, nil)
	if err != nil || out != "5" || string(caller.got) != `{"a":2}` {
		t.Fatalf("= %q, %v (called with %s)", out, err, caller.got)
	}
	// The clock moves 100 ms a read and a tick is 250 ms: not every progress is shown.
	want := []string{"Calling ` calc.add `…", "Calling ` calc.add `… 25%: ` one `", "Calling ` calc.add `… 7: `` `seven` ``", "✓ ` calc.add ` done in 0.5 s"}
	if strings.Join(shown, "|") != strings.Join(want, "|") {
		t.Errorf("shown %q\nwant  %q", shown, want)
	}
}

func TestToolErrorsAndRefusals(t *testing.T) {
	appr, _ := approvals(t, true)
	shown, _, err := run(t, &fakeCaller{res: mcp.Result{Text: "no such repo", IsError: true}}, appr, `{}`, nil)
	if err == nil || err.Error() != "no such repo" || !strings.HasPrefix(shown[len(shown)-1], "✗") {
		t.Errorf("tool error: %v, shown %q", err, shown)
	}
	_, _, err = run(t, &fakeCaller{err: errors.New("MCP server calc is not running")}, appr, `null`, nil)
	if err == nil || !strings.Contains(err.Error(), "not running") {
		t.Errorf("server down: %v", err)
	}
	for _, bad := range []string{`[1]`, `"x"`, `{`, `{"a":"` + strings.Repeat("x", MaxArgsBytes) + `"}`} {
		if _, _, err := run(t, &fakeCaller{}, appr, bad, nil); err == nil {
			t.Errorf("arguments %.20s… were taken", bad)
		}
	}
}

// Not granted: the call asks, with the tool, its server and the arguments; denied,
// the tool is never called and the model hears why.
func TestUngrantedCallAsks(t *testing.T) {
	appr, _ := approvals(t, false)
	caller := &fakeCaller{}
	var asked wire.Approval
	_, _, err := run(t, caller, appr, `{"a":2}`, func(p runtime.RunPaused) {
		if err := json.Unmarshal(p.Approval, &asked); err != nil {
			t.Error(err)
		}
		if _, err := appr.Decide(context.Background(), p.ApprovalID, approval.Decision{Decision: store.DecisionDeny, Note: "not now"}); err != nil {
			t.Error(err)
		}
	})
	if err == nil || !strings.Contains(err.Error(), "declined this tool call") || !strings.Contains(err.Error(), "not now") || caller.got != nil {
		t.Errorf("denied: %v, called with %s", err, caller.got)
	}
	if asked.Kind != "mcp" || asked.Server != "calc" || asked.Tool != "add" || string(asked.Arguments) != `{"a":2}` ||
		len(asked.Bases) != 1 || asked.Bases[0] != "calc.add" || asked.Annotations == nil || !*asked.Annotations.ReadOnlyHint {
		t.Errorf("asked %+v", asked)
	}
}

func TestParameters(t *testing.T) {
	tests := []struct{ in, want string }{
		{`{"type":"object","properties":{"a":{"type":"string"}}}`, `{"properties":{"a":{"type":"string"}},"type":"object"}`},
		{`{"properties":{}}`, `{"properties":{},"type":"object"}`},
		{`{"type":"object"}`, `{"properties":{},"type":"object"}`},
		{`{"type":"string"}`, `{"type":"object","properties":{}}`},
		{`null`, `{"type":"object","properties":{}}`},
		{`[1]`, `{"type":"object","properties":{}}`},
	}
	for _, tt := range tests {
		if got := string(parameters(json.RawMessage(tt.in))); got != tt.want {
			t.Errorf("parameters(%s) = %s, want %s", tt.in, got, tt.want)
		}
	}
}
