package llm_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/wispapp/wisp/runtime/llm"
	"github.com/wispapp/wisp/runtime/llm/llmtest"
)

func TestAnthropicToolResultFollowUp(t *testing.T) {
	srv := newServer(t)
	p := newAnthropic(t, srv)
	srv.Script(
		llmtest.Turn{
			Thinking:  []string{"I should", " read it."},
			ToolCalls: []llm.ToolCall{llmtest.Call("", "read_file", map[string]string{"path": "notes.txt"})},
		},
		llmtest.TextTurn("It failed.", 0),
	)
	req := userRequest("read notes.txt")
	req.ThinkingBudget = 1024
	first := stream(context.Background(), p, req)
	if first.err != nil {
		t.Fatalf("first turn: %v", first.err)
	}
	if len(first.resp.Thinking) != 1 || first.resp.Thinking[0].Signature == "" || len(first.resp.ToolCalls) != 1 {
		t.Fatalf("first response = %+v", first.resp)
	}
	call := first.resp.ToolCalls[0]
	req.Messages = append(req.Messages,
		llm.Message{Role: llm.RoleAssistant, Thinking: first.resp.Thinking, ToolCalls: first.resp.ToolCalls},
		llm.Message{Role: llm.RoleTool, ToolCallID: call.ID, Text: "permission denied", IsError: true},
	)
	if r := stream(context.Background(), p, req); r.err != nil || r.resp.Text != "It failed." {
		t.Fatalf("second turn = %+v, %v", r.resp, r.err)
	}

	got := srv.Requests()[1]
	if len(got.Messages) != 3 {
		t.Fatalf("server received %d messages, want 3: %+v", len(got.Messages), got.Messages)
	}
	asst, tool := got.Messages[1], got.Messages[2]
	if len(asst.Thinking) != 1 || asst.Thinking[0] != first.resp.Thinking[0] {
		t.Errorf("echoed thinking = %+v, want %+v", asst.Thinking, first.resp.Thinking)
	}
	if len(asst.ToolCalls) != 1 || asst.ToolCalls[0].ID != call.ID || string(asst.ToolCalls[0].Arguments) != `{"path":"notes.txt"}` {
		t.Errorf("echoed tool calls = %+v", asst.ToolCalls)
	}
	if tool.Role != llm.RoleTool || tool.ToolCallID != call.ID || tool.Text != "permission denied" || !tool.IsError {
		t.Errorf("tool result = %+v", tool)
	}

	// The thinking block must come before the tool_use block.
	var body struct {
		Messages []struct {
			Role    string `json:"role"`
			Content []struct {
				Type string `json:"type"`
			} `json:"content"`
		} `json:"messages"`
	}
	if err := json.Unmarshal(got.Body, &body); err != nil {
		t.Fatal(err)
	}
	var types []string
	for _, b := range body.Messages[1].Content {
		types = append(types, b.Type)
	}
	if !equalStrings(types, []string{"thinking", "tool_use"}) {
		t.Errorf("assistant blocks = %q, want thinking then tool_use", types)
	}
}

func TestAnthropicRequestParameters(t *testing.T) {
	temp := 0.3
	tests := []struct {
		name       string
		maxTokens  int
		budget     int
		wantMax    int
		wantBudget int
		wantTemp   bool // temperature sent
	}{
		{name: "defaults", wantMax: 4096, wantTemp: true},
		{name: "max tokens", maxTokens: 1000, wantMax: 1000, wantTemp: true},
		{name: "thinking drops temperature", maxTokens: 8000, budget: 2000, wantMax: 8000, wantBudget: 2000},
		{name: "max tokens raised above budget", maxTokens: 1000, budget: 2000, wantMax: 6096, wantBudget: 2000},
		{name: "budget below minimum disables thinking", budget: 500, wantMax: 4096, wantTemp: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := newServer(t)
			req := userRequest("hi")
			req.Temperature, req.MaxTokens, req.ThinkingBudget = &temp, tt.maxTokens, tt.budget
			if err := stream(context.Background(), newAnthropic(t, srv), req).err; err != nil {
				t.Fatal(err)
			}
			got := srv.Requests()[0]
			if got.MaxTokens != tt.wantMax || got.ThinkingBudget != tt.wantBudget {
				t.Errorf("max_tokens %d, budget %d; want %d, %d", got.MaxTokens, got.ThinkingBudget, tt.wantMax, tt.wantBudget)
			}
			if (got.Temperature != nil) != tt.wantTemp || (got.Temperature != nil && *got.Temperature != temp) {
				t.Errorf("temperature = %v, want sent: %v", got.Temperature, tt.wantTemp)
			}
			if got.System != "Be brief." || got.Header.Get("X-Api-Key") != "sk-ant-test" || got.Header.Get("Anthropic-Version") == "" {
				t.Errorf("system %q, headers %v", got.System, got.Header)
			}
		})
	}
}

func TestAnthropicMergesToolResults(t *testing.T) {
	srv := newServer(t)
	req := llm.Request{Model: "fake", Messages: []llm.Message{
		{Role: llm.RoleUser, Text: "do two things"},
		{Role: llm.RoleAssistant, Text: "On it.", ToolCalls: []llm.ToolCall{{ID: "a", Name: "x"}, {ID: "b", Name: "y", Arguments: json.RawMessage(`{"n":1}`)}}},
		{Role: llm.RoleTool, ToolCallID: "a", Text: "ok"},
		{Role: llm.RoleTool, ToolCallID: "b", Text: ""},
		{Role: llm.RoleUser, Text: "and then?"},
	}}
	if err := stream(context.Background(), newAnthropic(t, srv), req).err; err != nil {
		t.Fatal(err)
	}
	var body struct {
		Messages []struct {
			Role    string            `json:"role"`
			Content []json.RawMessage `json:"content"`
		} `json:"messages"`
	}
	if err := json.Unmarshal(srv.Requests()[0].Body, &body); err != nil {
		t.Fatal(err)
	}
	var roles []string
	for _, m := range body.Messages {
		roles = append(roles, m.Role)
	}
	if !equalStrings(roles, []string{"user", "assistant", "user"}) || len(body.Messages[2].Content) != 3 {
		t.Errorf("messages = %s, want user, assistant, then one user message with two results and the text", srv.Requests()[0].Body)
	}
	if got := srv.Requests()[0].Messages[1].ToolCalls[0].Arguments; string(got) != "{}" {
		t.Errorf("arguments of a call without any = %s, want {}", got)
	}
}
