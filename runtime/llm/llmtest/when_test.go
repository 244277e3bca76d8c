package llmtest

import (
	"net/http"
	"strings"
	"testing"

	"github.com/wispapp/wisp/runtime/llm"
)

func TestWhenMatch(t *testing.T) {
	r := Received{System: "Summarize the turns below.", Messages: []llm.Message{
		{Role: llm.RoleUser, Text: "first"}, {Role: llm.RoleAssistant, Text: "ok"}, {Role: llm.RoleUser, Text: "second question"},
	}}
	tests := []struct {
		when When
		want bool
	}{
		{When{SystemContains: "Summarize"}, true},
		{When{SystemContains: "summarize"}, false}, // case-sensitive
		{When{LastUserContains: "second"}, true},
		{When{LastUserContains: "first"}, false}, // only the last user message
		{When{SystemContains: "Summarize", LastUserContains: "second"}, true},
		{When{SystemContains: "Summarize", LastUserContains: "third"}, false},
	}
	for _, tt := range tests {
		if got := tt.when.Match(r); got != tt.want {
			t.Errorf("%+v.Match = %v, want %v", tt.when, got, tt.want)
		}
	}
	if (When{}).Check() == nil || (When{LastUserContains: "x"}).Check() != nil {
		t.Error("Check")
	}
}

func TestRouteIsNotUsedUp(t *testing.T) {
	s := newTestServer(t)
	s.Route(When{SystemContains: "Summarize"}, TextTurn("A summary", 0))
	s.Script(TextTurn("In line", 0))
	body := func(system string) string {
		return `{"model":"fake","messages":[{"role":"system","content":"` + system + `"},{"role":"user","content":"hi"}]}`
	}
	for i, ex := range []struct{ system, want string }{
		{"Summarize", "A summary"}, {"Be brief", "In line"}, {"Summarize", "A summary"}, {"Be brief", "You said: hi"},
	} {
		status, got := post(t, s.OpenAIURL()+"/chat/completions", body(ex.system))
		if status != http.StatusOK || !strings.Contains(got, `"content":"`+ex.want+`"`) {
			t.Errorf("request %d: %d %s, want %q", i, status, got, ex.want)
		}
	}
}
