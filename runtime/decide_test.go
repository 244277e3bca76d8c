package runtime

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/wispapp/wisp/runtime/llm"
)

func TestDecide(t *testing.T) {
	cases := []struct {
		name    string
		step    step
		want    Decision
		wantErr string
	}{
		{"silent", step{think: []string{"Quiet ", "day."}, calls: []llm.ToolCall{call("c", ToolStaySilent, `{"reason":"nothing new"}`)}},
			Decision{Reason: "nothing new", Thoughts: "Quiet day."}, ""},
		{"silent without a reason", step{calls: []llm.ToolCall{call("c", ToolStaySilent, `{}`)}}, Decision{}, ""},
		{"speak", step{text: []string{"Hm."}, calls: []llm.ToolCall{call("c", ToolSpeak, `{"text":" Build done. "}`)}},
			Decision{Speak: true, Text: "Build done.", Thoughts: "Hm."}, ""},
		{"first choice wins", step{calls: []llm.ToolCall{call("a", "other", `{}`), call("b", ToolStaySilent, `{"reason":"r"}`), call("c", ToolSpeak, `{"text":"x"}`)}},
			Decision{Reason: "r"}, ""},
		{"no choice", step{text: []string{"Hello!"}}, Decision{Thoughts: "Hello!"}, ErrNoDecision.Error()},
		{"empty speech", step{calls: []llm.ToolCall{call("c", ToolSpeak, `{"text":"  "}`)}}, Decision{}, "the text is empty"},
		{"bad arguments", step{calls: []llm.ToolCall{call("c", ToolSpeak, `{"text":3}`)}}, Decision{}, "speak: arguments"},
		{"model fails", step{err: errors.New("overloaded")}, Decision{}, "overloaded"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := &fakeProvider{steps: []step{tc.step}}
			a := newTestAgent(t, p, musicAction())
			var streamed strings.Builder
			got, err := a.Decide(context.Background(), Deliberation{Instructions: "Decide.", Situation: "It is noon."},
				func(s string) { streamed.WriteString(s) })
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("err %v, want %q", err, tc.wantErr)
				}
			} else if err != nil {
				t.Fatal(err)
			}
			got.Usage = llm.Usage{}
			if got != tc.want {
				t.Fatalf("got %+v, want %+v", got, tc.want)
			}
			if streamed.String() != strings.Join(append(tc.step.think, tc.step.text...), "") {
				t.Fatalf("streamed thoughts %q", streamed.String())
			}
			req := p.requests()[0]
			var tools []string
			for _, tool := range req.Tools {
				tools = append(tools, tool.Name)
				if !json.Valid(tool.Parameters) {
					t.Fatalf("%s parameters are not JSON", tool.Name)
				}
			}
			if strings.Join(tools, ",") != "speak,stay_silent" || req.System != "Be brief.\n\nYour name is Wisp.\n\nDecide." ||
				len(req.Messages) != 1 || req.Messages[0].Text != "It is noon." {
				t.Fatalf("request %+v (the agent's own actions must not be offered)", req)
			}
		})
	}
}

func TestDecideWithoutAProvider(t *testing.T) {
	a := New(Options{})
	if _, err := a.Decide(context.Background(), Deliberation{}, nil); !errors.Is(err, ErrNoProvider) {
		t.Fatalf("err %v", err)
	}
}

func TestActionsSeeTheConversation(t *testing.T) {
	var seen string
	act := Action{Name: "WHERE", Handler: func(_ context.Context, c Call) (string, error) {
		seen = c.ConversationID
		return "ok", nil
	}}
	p := &fakeProvider{steps: []step{{calls: []llm.ToolCall{call("c", "WHERE", `{}`)}}, {text: []string{"done"}}}}
	a := newTestAgent(t, p, act)
	if _, err := a.Turn(context.Background(), Input{Text: "hi", ConversationID: "conv-7"}, func(Event, Fold) {}); err != nil {
		t.Fatal(err)
	}
	if seen != "conv-7" {
		t.Fatalf("the action saw conversation %q", seen)
	}
}
