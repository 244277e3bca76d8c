package runtime

import (
	"context"
	"testing"

	"github.com/wispapp/wisp/runtime/llm"
)

func TestFallbackTitle(t *testing.T) {
	cases := map[string]string{
		"":                                  "New Chat",
		"  hello   there ":                  "hello there",
		"one two three four five six seven": "one two three four five",
	}
	for in, want := range cases {
		if got := FallbackTitle(in); got != want {
			t.Errorf("FallbackTitle(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestTitleFromModelAndFallback(t *testing.T) {
	cases := []struct {
		step step
		want string
	}{
		{step{text: []string{"Title: \"Planning a trip\".\nextra"}}, "Planning a trip"},
		{step{text: []string{"  "}}, "plan my trip to Lisbon"},
		{step{err: &llm.Error{Kind: llm.KindServer, Provider: "openai"}}, "plan my trip to Lisbon"},
	}
	for _, tc := range cases {
		p := &fakeProvider{steps: []step{tc.step}}
		got, _ := newTestAgent(t, p).Title(context.Background(), "plan my trip to Lisbon please", "Sure")
		if got != tc.want {
			t.Errorf("title = %q, want %q", got, tc.want)
		}
		if req := p.requests()[0]; req.System != TitleInstruction || len(req.Tools) != 0 {
			t.Errorf("title request = %+v", req)
		}
	}
}

func TestSystemPrompt(t *testing.T) {
	got := Character{Name: "Ada", System: " Help. ", Bio: "Likes maths."}.SystemPrompt()
	if got != "Help.\n\nYour name is Ada. Likes maths." {
		t.Fatalf("prompt = %q", got)
	}
}
