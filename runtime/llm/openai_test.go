package llm_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/wispapp/wisp/runtime/llm"
	"github.com/wispapp/wisp/runtime/llm/llmtest"
)

func TestOpenAIToolResultFollowUp(t *testing.T) {
	srv := newServer(t)
	p := newOpenAI(t, srv)
	srv.Script(
		llmtest.ToolTurn(llmtest.Call("", "read_file", map[string]string{"path": "notes.txt"})),
		llmtest.TextTurn("The file says hello.", 0),
	)
	req := userRequest("read notes.txt")
	first := stream(context.Background(), p, req)
	if first.err != nil {
		t.Fatalf("first turn: %v", first.err)
	}
	call := first.resp.ToolCalls[0]
	req.Messages = append(req.Messages,
		llm.Message{Role: llm.RoleAssistant, Thinking: first.resp.Thinking, ToolCalls: first.resp.ToolCalls},
		llm.Message{Role: llm.RoleTool, ToolCallID: call.ID, Text: "hello"},
	)
	second := stream(context.Background(), p, req)
	if second.err != nil || second.resp.Text != "The file says hello." {
		t.Fatalf("second turn = %+v, %v", second.resp, second.err)
	}

	got := srv.Requests()[1].Messages
	if len(got) != 3 {
		t.Fatalf("server received %d messages, want 3: %+v", len(got), got)
	}
	asst, tool := got[1], got[2]
	if asst.Role != llm.RoleAssistant || len(asst.ToolCalls) != 1 || asst.ToolCalls[0].ID != call.ID ||
		asst.ToolCalls[0].Name != "read_file" || string(asst.ToolCalls[0].Arguments) != `{"path":"notes.txt"}` {
		t.Errorf("assistant message = %+v", asst)
	}
	if tool.Role != llm.RoleTool || tool.ToolCallID != call.ID || tool.Text != "hello" {
		t.Errorf("tool message = %+v, want tool_call_id %s", tool, call.ID)
	}
}

func TestOpenAIRequestParameters(t *testing.T) {
	srv := newServer(t)
	temp := 0.2
	req := userRequest("hi")
	req.Temperature = &temp
	req.MaxTokens = 300
	if err := stream(context.Background(), newOpenAI(t, srv), req).err; err != nil {
		t.Fatal(err)
	}
	got := srv.Requests()[0]
	var body struct {
		MaxTokens           *int `json:"max_tokens"`
		MaxCompletionTokens *int `json:"max_completion_tokens"`
		StreamOptions       struct {
			IncludeUsage bool `json:"include_usage"`
		} `json:"stream_options"`
		Messages []struct {
			Role string `json:"role"`
		} `json:"messages"`
	}
	if err := json.Unmarshal(got.Body, &body); err != nil {
		t.Fatal(err)
	}
	if body.MaxTokens == nil || *body.MaxTokens != 300 || body.MaxCompletionTokens != nil {
		t.Errorf("token limit sent as %s, want max_tokens only (not api.openai.com)", got.Body)
	}
	if !body.StreamOptions.IncludeUsage {
		t.Errorf("stream_options.include_usage not set: %s", got.Body)
	}
	if len(body.Messages) != 2 || body.Messages[0].Role != "system" {
		t.Errorf("messages = %+v, want the system prompt first", body.Messages)
	}
	if got.Temperature == nil || *got.Temperature != 0.2 {
		t.Errorf("temperature = %v, want 0.2", got.Temperature)
	}
	if auth := got.Header.Get("Authorization"); auth != "Bearer sk-test" {
		t.Errorf("Authorization = %q", auth)
	}
}

func TestOllamaSendsPlaceholderKey(t *testing.T) {
	srv := newServer(t)
	p, err := llm.New(llm.Config{Kind: "ollama", BaseURL: srv.OpenAIURL(), HTTPClient: testClient(t)})
	if err != nil {
		t.Fatal(err)
	}
	if p.Name() != "ollama" {
		t.Errorf("Name() = %q", p.Name())
	}
	if err := stream(context.Background(), p, userRequest("hi")).err; err != nil {
		t.Fatal(err)
	}
	if auth := srv.Requests()[0].Header.Get("Authorization"); !strings.HasPrefix(auth, "Bearer ") || len(auth) <= len("Bearer ") {
		t.Errorf("Authorization = %q, want a placeholder bearer key", auth)
	}
}

// TestOpenAIWireVariants feeds chunk streams from servers that differ from OpenAI's:
// Ollama's "reasoning" field, a missing finish reason, tool calls without ids.
func TestOpenAIWireVariants(t *testing.T) {
	tests := []struct {
		name     string
		chunks   []string
		check    func(t *testing.T, r result)
		wantKind llm.ErrorKind
	}{
		{
			name: "ollama reasoning field",
			chunks: []string{
				`{"choices":[{"index":0,"delta":{"role":"assistant","content":"","reasoning":"Thinking"}}]}`,
				`{"choices":[{"index":0,"delta":{"reasoning":" hard."}}]}`,
				`{"choices":[{"index":0,"delta":{"content":"Done."},"finish_reason":"stop"}]}`,
				`[DONE]`,
			},
			check: func(t *testing.T, r result) {
				if got := r.texts(llm.DeltaThinking); !equalStrings(got, []string{"Thinking", " hard."}) {
					t.Errorf("thinking deltas = %q", got)
				}
				if r.resp.Text != "Done." || r.resp.Thinking[0].Text != "Thinking hard." || r.resp.StopReason != "end_turn" {
					t.Errorf("response = %+v", r.resp)
				}
			},
		},
		{
			name: "no finish reason before DONE",
			chunks: []string{
				`{"choices":[{"index":0,"delta":{"content":"Half"}}]}`,
				`[DONE]`,
			},
			wantKind: llm.KindStream,
		},
		{
			name: "no finish reason and no DONE",
			chunks: []string{
				`{"choices":[{"index":0,"delta":{"content":"Half"}}]}`,
			},
			wantKind: llm.KindStream,
		},
		{
			name: "tool calls without ids, all at index 0, finish stop, length",
			chunks: []string{
				`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"name":"a","arguments":"{\"x\":"}}]}}]}`,
				`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"1}"}}]}}]}`,
				`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":1,"id":"b1","function":{"name":"b","arguments":"not json"}}]}}]}`,
				`{"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}`,
				`[DONE]`,
			},
			check: func(t *testing.T, r result) {
				calls := r.resp.ToolCalls
				if len(calls) != 2 || calls[0].ID == "" || calls[0].Name != "a" || string(calls[0].Arguments) != `{"x":1}` ||
					calls[1].ID != "b1" || string(calls[1].Arguments) != `"not json"` {
					t.Errorf("tool calls = %+v", calls)
				}
				if r.resp.StopReason != "tool_use" {
					t.Errorf("StopReason = %q, want tool_use", r.resp.StopReason)
				}
			},
		},
		{
			name: "length",
			chunks: []string{
				`{"choices":[{"index":0,"delta":{"content":"Cut"},"finish_reason":"length"}]}`,
				`[DONE]`,
			},
			check: func(t *testing.T, r result) {
				if r.resp.StopReason != "max_tokens" {
					t.Errorf("StopReason = %q, want max_tokens", r.resp.StopReason)
				}
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "text/event-stream")
				for _, c := range tt.chunks {
					fmt.Fprintf(w, "data: %s\n\n", c)
				}
			}))
			defer srv.Close()
			p := llm.NewOpenAI(llm.Config{BaseURL: srv.URL + "/v1", HTTPClient: testClient(t)})
			r := stream(context.Background(), p, userRequest("hi"))
			if tt.wantKind != "" {
				if e := asError(t, r.err); e.Kind != tt.wantKind {
					t.Errorf("Kind = %s, want %s", e.Kind, tt.wantKind)
				}
				return
			}
			if r.err != nil {
				t.Fatalf("Stream: %v", r.err)
			}
			tt.check(t, r)
		})
	}
}

// TestOpenAIUsesMaxCompletionTokensWithOpenAI checks the request OpenAI itself gets,
// by routing api.openai.com to the fake server.
func TestOpenAIUsesMaxCompletionTokensWithOpenAI(t *testing.T) {
	srv := newServer(t)
	client := testClient(t)
	client.Transport = rewriteHost{to: strings.TrimPrefix(srv.URL, "http://"), next: client.Transport}
	p := llm.NewOpenAI(llm.Config{APIKey: "sk", HTTPClient: client})
	req := userRequest("hi")
	req.MaxTokens = 50
	if err := stream(context.Background(), p, req).err; err != nil {
		t.Fatal(err)
	}
	body := string(srv.Requests()[0].Body)
	if !strings.Contains(body, `"max_completion_tokens":50`) || strings.Contains(body, `"max_tokens"`) {
		t.Errorf("body = %s, want max_completion_tokens only", body)
	}
}

// rewriteHost sends every request to a local server over plain HTTP.
type rewriteHost struct {
	to   string
	next http.RoundTripper
}

func (rt rewriteHost) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.URL.Scheme, r.URL.Host = "http", rt.to
	return rt.next.RoundTrip(r)
}
