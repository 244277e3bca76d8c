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

type fakeApprovals struct {
	granted bool
	asked   []approval.Ask
	covered []bool
	deny    error
}

func (f *fakeApprovals) Granted(context.Context, string) (func(string) bool, error) {
	return func(base string) bool { return f.granted && base == "calc.add" }, nil
}

func (f *fakeApprovals) Gate(_ context.Context, _ runtime.Call, ask approval.Ask, covered bool) error {
	f.asked, f.covered = append(f.asked, ask), append(f.covered, covered)
	if covered {
		return nil
	}
	return f.deny
}

// clock advances by step each time it is read.
func clock(step time.Duration) func() time.Time {
	t := time.Unix(0, 0)
	return func() time.Time { t = t.Add(step); return t }
}

func run(t *testing.T, caller *fakeCaller, appr *fakeApprovals, args string) ([]string, string, error) {
	t.Helper()
	tool := mcp.Tool{Server: "calc", Name: "add", Action: "calc__add", Description: "Adds",
		InputSchema: json.RawMessage(`{"properties":{"a":{"type":"number"}}}`), Annotations: &sdk.ToolAnnotations{ReadOnlyHint: true}}
	acts := Actions([]mcp.Tool{tool}, Options{Caller: caller, Approvals: appr, Now: clock(100 * time.Millisecond)})
	if len(acts) != 1 || acts[0].Name != "calc__add" || !strings.Contains(acts[0].Description, `MCP server "calc"`) {
		t.Fatalf("actions = %+v", acts)
	}
	var shown []string
	call := runtime.Call{ID: "c1", Args: json.RawMessage(args), RunID: "r1",
		Callback: func(text string, _ runtime.Merge) { shown = append(shown, text) },
		Report:   func(runtime.Event) {}}
	out, err := acts[0].Handler(context.Background(), call)
	return shown, out, err
}

func TestGrantedCallShowsProgressAndAnswers(t *testing.T) {
	caller := &fakeCaller{res: mcp.Result{Text: "5"}, progress: []mcp.Progress{{Progress: 1, Total: 4, Message: "one"}, {Progress: 2, Total: 4}, {Progress: 3, Total: 4}, {Progress: 7, Message: "`seven`"}}}
	appr := &fakeApprovals{granted: true}
	shown, out, err := run(t, caller, appr, `{"a":2}`)
	if err != nil || out != "5" {
		t.Fatalf("= %q, %v", out, err)
	}
	ask := appr.asked[0]
	if !appr.covered[0] || ask.Kind != "mcp" || ask.Server != "calc" || ask.Tool != "add" || string(ask.Arguments) != `{"a":2}` ||
		ask.Bases[0] != "calc.add" || ask.Annotations == nil || !*ask.Annotations.ReadOnlyHint {
		t.Errorf("ask = %+v covered %v", ask, appr.covered)
	}
	// The clock moves 100 ms a read and a tick is 250 ms: not every progress is shown.
	want := []string{"Calling ` calc.add `…", "Calling ` calc.add `… 25%: ` one `", "Calling ` calc.add `… 7: `` `seven` ``", "✓ ` calc.add ` done in 0.5 s"}
	if strings.Join(shown, "|") != strings.Join(want, "|") {
		t.Errorf("shown %q\nwant  %q", shown, want)
	}
}

func TestToolErrorsAndRefusals(t *testing.T) {
	shown, _, err := run(t, &fakeCaller{res: mcp.Result{Text: "no such repo", IsError: true}}, &fakeApprovals{granted: true}, `{}`)
	if err == nil || err.Error() != "no such repo" || !strings.HasPrefix(shown[len(shown)-1], "✗") {
		t.Errorf("tool error: %v, shown %q", err, shown)
	}
	_, _, err = run(t, &fakeCaller{err: errors.New("MCP server calc is not running")}, &fakeApprovals{granted: true}, `null`)
	if err == nil || !strings.Contains(err.Error(), "not running") {
		t.Errorf("server down: %v", err)
	}
	denied := errors.New("the user declined this tool call")
	caller := &fakeCaller{}
	if _, _, err := run(t, caller, &fakeApprovals{deny: denied}, `{}`); !errors.Is(err, denied) || caller.got != nil {
		t.Errorf("denied: %v, called with %s", err, caller.got)
	}
	for _, bad := range []string{`[1]`, `"x"`, `{`, `{"a":"` + strings.Repeat("x", MaxArgsBytes) + `"}`} {
		if _, _, err := run(t, &fakeCaller{}, &fakeApprovals{granted: true}, bad); err == nil {
			t.Errorf("arguments %.20s… were taken", bad)
		}
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
