package llmtest

import (
	"encoding/json"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/wispapp/wisp/runtime/llm"
)

func TestWords(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"", nil},
		{"hello", []string{"hello"}},
		{"hello big world", []string{"hello", " big", " world"}},
		{"  lead and trail  ", []string{"  lead", " and", " trail  "}},
		{"line one\nline two", []string{"line", " one", "\nline", " two"}},
		{"   ", []string{"   "}},
	}
	for _, tt := range tests {
		got := Words(tt.in)
		if strings.Join(got, "|") != strings.Join(tt.want, "|") || len(got) != len(tt.want) {
			t.Errorf("Words(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func FuzzWords(f *testing.F) {
	for _, s := range []string{"", "a b", "  x\ty\n", "héllo wörld "} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		chunks := Words(s)
		if strings.Join(chunks, "") != s {
			t.Fatalf("Words(%q) = %q does not join back", s, chunks)
		}
		for _, c := range chunks {
			if c == "" {
				t.Fatalf("Words(%q) has an empty chunk", s)
			}
		}
	})
}

func TestFragments(t *testing.T) {
	for _, args := range []string{"", "{}", `{"path":"/tmp/ünïcode/日本語"}`, strings.Repeat(`{"a":1}`, 20)} {
		frags := fragments(args)
		want := args
		if want == "" {
			want = "{}"
		}
		if len(frags) < 2 || strings.Join(frags, "") != want {
			t.Errorf("fragments(%q) = %q, want at least two pieces joining back", args, frags)
		}
		for _, f := range frags {
			if !utf8.ValidString(f) {
				t.Errorf("fragment %q splits a character", f)
			}
		}
	}
}

func TestTurnJSON(t *testing.T) {
	tests := []struct {
		name    string
		in      string
		want    Turn
		wantErr bool
	}{
		{
			name: "arrays and camelCase",
			in:   `{"text":["Hi"," there"],"thinking":["hmm"],"toolCalls":[{"id":"c1","name":"run","arguments":{"cmd":"ls"}}],"cutAfter":2,"errorEvent":"x","status":0,"usage":{"inputTokens":1,"outputTokens":2},"hang":false,"stopReason":"max_tokens"}`,
			want: Turn{Text: []string{"Hi", " there"}, Thinking: []string{"hmm"}, ToolCalls: []llm.ToolCall{{ID: "c1", Name: "run", Arguments: json.RawMessage(`{"cmd":"ls"}`)}},
				CutAfter: 2, ErrorEvent: "x", Usage: llm.Usage{InputTokens: 1, OutputTokens: 2}, StopReason: "max_tokens"},
		},
		{name: "text as a string", in: `{"text":"Hi there","delay":"20ms"}`, want: Turn{Text: []string{"Hi", " there"}, Delay: 20 * time.Millisecond}},
		{name: "delay in milliseconds", in: `{"delay":15}`, want: Turn{Delay: 15 * time.Millisecond}},
		{name: "http error", in: `{"status":429,"errorMessage":"slow down"}`, want: Turn{Status: 429, ErrorMessage: "slow down"}},
		{name: "unknown field", in: `{"txt":"typo"}`, wantErr: true},
		{name: "bad delay", in: `{"delay":"soon"}`, wantErr: true},
		{name: "bad text", in: `{"text":3}`, wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got Turn
			err := json.Unmarshal([]byte(tt.in), &got)
			if tt.wantErr {
				if err == nil {
					t.Errorf("Unmarshal = %+v, want an error", got)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !sameTurn(got, tt.want) {
				t.Errorf("Unmarshal = %+v\n want %+v", got, tt.want)
			}
			// What MarshalJSON writes reads back the same.
			data, err := json.Marshal(got)
			if err != nil {
				t.Fatal(err)
			}
			var again Turn
			if err := json.Unmarshal(data, &again); err != nil || !sameTurn(again, got) {
				t.Errorf("round trip through %s = %+v, %v", data, again, err)
			}
		})
	}
}

func sameTurn(a, b Turn) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return string(x) == string(y) && a.Delay == b.Delay
}

func TestEchoAnswersTitleRequests(t *testing.T) {
	cases := []struct {
		system, user string
		tools        []string
		want         string
	}{
		{"Be nice.", "hello there", nil, "You said: hello there"},
		{"Reply with a short title for this.", "User: plan a trip to Lisbon next May please\n\nAssistant: Sure", nil, "plan a trip to Lisbon"},
		{"TITLE it", "just words", nil, "just words"},
		// A chat turn's prompt may mention titles (a citation's); it offers actions.
		{"Cite with the conversation title.", "hello there", []string{"RECALL"}, "You said: hello there"},
	}
	for _, tc := range cases {
		turn := Echo(0)(Received{System: tc.system, Tools: tc.tools, Messages: []llm.Message{{Role: llm.RoleUser, Text: tc.user}}})
		if got := strings.Join(turn.Text, ""); got != tc.want {
			t.Errorf("Echo(%q, %q) = %q, want %q", tc.system, tc.user, got, tc.want)
		}
	}
}

func TestEchoAfterAToolCall(t *testing.T) {
	turn := Echo(0)(Received{Messages: []llm.Message{
		{Role: llm.RoleUser, Text: "echo hi"},
		{Role: llm.RoleAssistant, ToolCalls: []llm.ToolCall{{ID: "c1", Name: "echo"}}},
		{Role: llm.RoleTool, Text: "Echo: hi"},
	}})
	if got := strings.Join(turn.Text, ""); got != "The tool said: Echo: hi" {
		t.Errorf("Echo after a tool call = %q", got)
	}
}
