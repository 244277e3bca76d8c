package runtime

import (
	"context"
	"log/slog"
	"strings"
	"sync"
	"testing"

	"github.com/wispapp/wisp/runtime/llm"
)

// TestMemoryIsReadAtEveryModelCall: the memory is in the system prompt of every
// step (a note saved by an action is in the next step's prompt) and of a
// deliberation; an action's prompt only while it is offered, and never in a
// deliberation (which offers none of them).
func TestMemoryIsReadAtEveryModelCall(t *testing.T) {
	var mu sync.Mutex
	memory := ""
	offered := true
	note := Action{Name: "NOTE", Description: "Note it.", Prompt: "Cite what NOTE found.",
		Available: func() bool { mu.Lock(); defer mu.Unlock(); return offered },
		Handler: func(context.Context, Call) (string, error) {
			mu.Lock()
			memory = "## Memory\n- Likes tea"
			mu.Unlock()
			return "noted", nil
		}}
	p := &fakeProvider{steps: []step{{calls: []llm.ToolCall{call("c1", "NOTE", `{}`)}}, {text: []string{"Done."}},
		{calls: []llm.ToolCall{call("c2", ToolStaySilent, `{"reason":"quiet"}`)}}, {text: []string{"Hi."}}}}
	reg := NewRegistry()
	if err := reg.Register(note); err != nil {
		t.Fatal(err)
	}
	a := New(Options{
		Provider: func() (llm.Provider, error) { return p, nil },
		Settings: func() Settings { return Settings{Character: Character{Name: "Wisp", System: "Be brief."}, Model: "m"} },
		Actions:  reg, Logger: slog.New(slog.DiscardHandler),
		Memory: func() string { mu.Lock(); defer mu.Unlock(); return memory },
	})
	if _, err := a.Turn(context.Background(), Input{Text: "I like tea"}, func(Event, Fold) {}); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Decide(context.Background(), Deliberation{Instructions: "Decide.", Situation: "Noon."}, nil); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	offered = false
	mu.Unlock()
	if _, err := a.Turn(context.Background(), Input{Text: "hi"}, func(Event, Fold) {}); err != nil {
		t.Fatal(err)
	}
	reqs := p.requests()
	want := []string{
		"Be brief.\n\nYour name is Wisp.\n\nCite what NOTE found.",
		"Be brief.\n\nYour name is Wisp.\n\n## Memory\n- Likes tea\n\nCite what NOTE found.",
		"Be brief.\n\nYour name is Wisp.\n\n## Memory\n- Likes tea\n\nDecide.",
		"Be brief.\n\nYour name is Wisp.\n\n## Memory\n- Likes tea",
	}
	for i, w := range want {
		if reqs[i].System != w {
			t.Errorf("request %d's system prompt:\n%s\nwant:\n%s", i, reqs[i].System, w)
		}
	}
	if got := a.SystemPrompt(a.Settings()); !strings.HasSuffix(got, "- Likes tea") {
		t.Fatalf("SystemPrompt = %q", got)
	}
}
