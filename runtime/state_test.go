package runtime

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/wispapp/wisp/internal/jsonpatch"
	"github.com/wispapp/wisp/runtime/llm"
)

// TestActionCustomAndPatch: an action's custom events and state patches are run
// events of its call, a bad or oversized patch is refused whole, and the state the
// logged patches build is the state the action left.
func TestActionCustomAndPatch(t *testing.T) {
	var late Call
	act := Action{Name: "STATEFUL", Handler: func(ctx context.Context, c Call) (string, error) {
		c.Custom("progress", map[string]int{"percent": 40})
		c.Custom("", 1)                                         // no name: dropped
		c.Custom("huge", strings.Repeat("x", MaxCustom+1))      // too big: dropped
		c.Custom("unencodable", map[string]any{"f": func() {}}) // not JSON: dropped
		if err := c.Patch(jsonpatch.Add("/job", map[string]any{"status": "running"})); err != nil {
			return "", err
		}
		if err := c.Patch(jsonpatch.Add("/other", 1), jsonpatch.Remove("/missing")); err == nil {
			t.Error("a patch with a failing operation applied")
		}
		if err := c.Patch(jsonpatch.Add("/big", strings.Repeat("y", MaxState))); err == nil {
			t.Error("a patch past MaxState applied")
		}
		if err := c.Patch(); err == nil {
			t.Error("an empty patch applied")
		}
		if err := c.Patch(jsonpatch.Replace("/job/status", "done")); err != nil {
			return "", err
		}
		late = c
		return "ok", nil
	}}
	p := &fakeProvider{steps: []step{{calls: []llm.ToolCall{call("k1", "STATEFUL", `{}`)}}, {text: []string{"fine"}}}}
	var rec recorder
	if _, err := newTestAgent(t, p, act).Turn(context.Background(), Input{Text: "go"}, rec.emit); err != nil {
		t.Fatal(err)
	}
	if err := late.Patch(jsonpatch.Add("/late", true)); err == nil {
		t.Error("a patch after the action returned applied")
	}
	var customs []Custom
	var patches int
	id := ""
	for _, ev := range roundTrip(t, rec.events) {
		switch d := ev.Data.(type) {
		case ToolStart:
			id = d.CallID
		case Custom:
			customs = append(customs, d)
		case StatePatch:
			patches++
			if d.CallID != id {
				t.Errorf("patch of call %q", d.CallID)
			}
		}
	}
	if len(customs) != 1 || customs[0].Name != "progress" || customs[0].CallID != id || string(customs[0].Data) != `{"percent":40}` {
		t.Fatalf("custom events = %+v", customs)
	}
	if patches != 2 {
		t.Fatalf("%d patches logged, want the 2 that applied", patches)
	}
	if got := string(StateOf(rec.events)); got != `{"job":{"status":"done"}}` {
		t.Fatalf("state = %s", got)
	}
	if got := string(StateOf(nil)); got != `{}` {
		t.Fatalf("empty state = %s", got)
	}
}

func TestStateOfIgnoresOtherEvents(t *testing.T) {
	evs := []Event{{Type: EventTextDelta, Data: TextDelta{Text: "x"}},
		{Type: EventStatePatch, Data: StatePatch{Patches: []jsonpatch.Op{{Op: "add", Path: "/a", Value: json.RawMessage(`[1]`)}}}}}
	if got := string(StateOf(evs)); got != `{"a":[1]}` {
		t.Fatalf("state = %s", got)
	}
}
