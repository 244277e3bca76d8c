package llm_test

import (
	"context"
	"encoding/json"
	"errors"
	"net"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/wispapp/wisp/runtime/llm"
	"github.com/wispapp/wisp/runtime/llm/llmtest"
)

func TestStreamText(t *testing.T) {
	eachProvider(t, func(t *testing.T, srv *llmtest.Server, p llm.Provider) {
		chunks := []string{"Hello", " there,", " friend."}
		srv.Script(llmtest.Turn{Text: chunks, Usage: llm.Usage{InputTokens: 12, OutputTokens: 3}})

		r := stream(context.Background(), p, userRequest("hi"))
		if r.err != nil {
			t.Fatalf("Stream: %v", r.err)
		}
		if got := r.texts(llm.DeltaText); !equalStrings(got, chunks) {
			t.Errorf("text deltas = %q, want %q", got, chunks)
		}
		want := llm.Response{Text: "Hello there, friend.", Usage: llm.Usage{InputTokens: 12, OutputTokens: 3}, StopReason: "end_turn"}
		if r.resp.Text != want.Text || r.resp.Usage != want.Usage || r.resp.StopReason != want.StopReason {
			t.Errorf("response = %+v, want %+v", r.resp, want)
		}
		reqs := srv.Requests()
		if len(reqs) != 1 || !reqs[0].Stream || reqs[0].System != "Be brief." || reqs[0].LastUserText() != "hi" || reqs[0].Model != "fake" {
			t.Errorf("server received %+v", reqs)
		}
	})
}

func TestStreamEchoFallback(t *testing.T) {
	eachProvider(t, func(t *testing.T, srv *llmtest.Server, p llm.Provider) {
		r := stream(context.Background(), p, userRequest("what is up"))
		if r.err != nil {
			t.Fatalf("Stream: %v", r.err)
		}
		if want := []string{"You", " said:", " what", " is", " up"}; !equalStrings(r.texts(llm.DeltaText), want) {
			t.Errorf("text deltas = %q, want %q", r.texts(llm.DeltaText), want)
		}
	})
}

func TestStreamToolCalls(t *testing.T) {
	eachProvider(t, func(t *testing.T, srv *llmtest.Server, p llm.Provider) {
		srv.Script(llmtest.Turn{
			Text: []string{"Let me look."},
			ToolCalls: []llm.ToolCall{
				llmtest.Call("call_1", "read_file", map[string]any{"path": "/etc/hosts", "lines": 20}),
				llmtest.Call("call_2", "list_dir", map[string]any{"path": "/tmp/ünïcode"}),
			},
		})
		req := userRequest("look around")
		req.Tools = []llm.Tool{
			{Name: "read_file", Description: "Read a file", Parameters: json.RawMessage(`{"type":"object","properties":{"path":{"type":"string"}},"required":["path"]}`)},
			{Name: "list_dir"},
		}
		r := stream(context.Background(), p, req)
		if r.err != nil {
			t.Fatalf("Stream: %v", r.err)
		}
		if r.resp.StopReason != "tool_use" {
			t.Errorf("StopReason = %q, want tool_use", r.resp.StopReason)
		}
		calls := r.toolCalls()
		if len(calls) != 2 || len(r.resp.ToolCalls) != 2 {
			t.Fatalf("tool call deltas = %+v, response calls = %+v; want 2", calls, r.resp.ToolCalls)
		}
		wants := []struct {
			id, name string
			args     map[string]any
		}{
			{"call_1", "read_file", map[string]any{"path": "/etc/hosts", "lines": float64(20)}},
			{"call_2", "list_dir", map[string]any{"path": "/tmp/ünïcode"}},
		}
		for i, want := range wants {
			for _, c := range []llm.ToolCall{calls[i], r.resp.ToolCalls[i]} {
				var args map[string]any
				if err := json.Unmarshal(c.Arguments, &args); err != nil {
					t.Fatalf("call %d arguments %s: %v", i, c.Arguments, err)
				}
				if c.ID != want.id || c.Name != want.name || !equalJSON(args, want.args) {
					t.Errorf("call %d = %s %s %v, want %s %s %v", i, c.ID, c.Name, args, want.id, want.name, want.args)
				}
			}
		}
		if got := srv.Requests()[0].Tools; !equalStrings(got, []string{"read_file", "list_dir"}) {
			t.Errorf("server received tools %q", got)
		}
	})
}

func equalJSON(a, b any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return string(x) == string(y)
}

func TestStreamThinking(t *testing.T) {
	eachProvider(t, func(t *testing.T, srv *llmtest.Server, p llm.Provider) {
		srv.Script(llmtest.Turn{Thinking: []string{"The user", " greets me."}, Text: []string{"Hi!"}})
		req := userRequest("hello")
		req.ThinkingBudget = 2048
		r := stream(context.Background(), p, req)
		if r.err != nil {
			t.Fatalf("Stream: %v", r.err)
		}
		if got, want := r.texts(llm.DeltaThinking), []string{"The user", " greets me."}; !equalStrings(got, want) {
			t.Errorf("thinking deltas = %q, want %q", got, want)
		}
		if r.deltas[0].Kind != llm.DeltaThinking || r.deltas[len(r.deltas)-1].Kind != llm.DeltaText {
			t.Errorf("deltas out of order: %+v", r.deltas)
		}
		if len(r.resp.Thinking) != 1 || r.resp.Thinking[0].Text != "The user greets me." || r.resp.Text != "Hi!" {
			t.Errorf("response = %+v", r.resp)
		}
		if p.Name() == "anthropic" && r.resp.Thinking[0].Signature == "" {
			t.Errorf("anthropic thinking has no signature")
		}
	})
}

func TestStreamErrorEvent(t *testing.T) {
	eachProvider(t, func(t *testing.T, srv *llmtest.Server, p llm.Provider) {
		srv.Script(llmtest.Turn{Text: []string{"Partial"}, ErrorEvent: "Overloaded right now"})
		r := stream(context.Background(), p, userRequest("hi"))
		e := asError(t, r.err)
		if e.Kind != llm.KindServer || e.Provider != p.Name() || !strings.Contains(e.Error(), "Overloaded right now") {
			t.Errorf("error = %#v (%v), want KindServer saying the provider's message", e, e)
		}
		if got := r.texts(llm.DeltaText); !equalStrings(got, []string{"Partial"}) {
			t.Errorf("text deltas before the error = %q", got)
		}
	})
}

func TestStreamErrorEventKinds(t *testing.T) {
	tests := []struct {
		typ  string
		want llm.ErrorKind
	}{
		{"overloaded_error", llm.KindServer},
		{"api_error", llm.KindServer},
		{"rate_limit_error", llm.KindRateLimit},
		{"invalid_request_error", llm.KindBadRequest},
		{"authentication_error", llm.KindAuth},
	}
	for _, tt := range tests {
		t.Run(tt.typ, func(t *testing.T) {
			eachProvider(t, func(t *testing.T, srv *llmtest.Server, p llm.Provider) {
				srv.Script(llmtest.Turn{ErrorEvent: "boom", ErrorType: tt.typ})
				if e := asError(t, stream(context.Background(), p, userRequest("hi")).err); e.Kind != tt.want {
					t.Errorf("Kind = %s, want %s", e.Kind, tt.want)
				}
			})
		})
	}
}

func TestStreamCut(t *testing.T) {
	eachProvider(t, func(t *testing.T, srv *llmtest.Server, p llm.Provider) {
		srv.Script(llmtest.Turn{Text: []string{"one", " two", " three"}, CutAfter: 2})
		r := stream(context.Background(), p, userRequest("hi"))
		e := asError(t, r.err)
		if e.Kind != llm.KindStream {
			t.Errorf("Kind = %s, want %s (%v)", e.Kind, llm.KindStream, e)
		}
		if got := r.texts(llm.DeltaText); !equalStrings(got, []string{"one", " two"}) {
			t.Errorf("text deltas before the cut = %q", got)
		}
		want := "The " + p.Name() + " model provider's stream was cut off before the reply finished."
		if e.Error() != want {
			t.Errorf("Error() = %q, want %q", e.Error(), want)
		}
	})
}

func TestStreamHTTPErrors(t *testing.T) {
	tests := []struct {
		status int
		want   llm.ErrorKind
	}{
		{401, llm.KindAuth},
		{403, llm.KindAuth},
		{429, llm.KindRateLimit},
		{500, llm.KindServer},
		{529, llm.KindServer},
		{400, llm.KindBadRequest},
		{404, llm.KindBadRequest},
		{422, llm.KindBadRequest},
	}
	for _, tt := range tests {
		t.Run(strconv.Itoa(tt.status), func(t *testing.T) {
			eachProvider(t, func(t *testing.T, srv *llmtest.Server, p llm.Provider) {
				srv.Script(llmtest.ErrorTurn(tt.status, "Provider says no"))
				e := asError(t, stream(context.Background(), p, userRequest("hi")).err)
				if e.Kind != tt.want || e.Status != tt.status || e.Message != "Provider says no" || e.Provider != p.Name() {
					t.Errorf("error = %+v, want kind %s status %d with the provider's message", e, tt.want, tt.status)
				}
				if !strings.Contains(e.Error(), "Provider says no") {
					t.Errorf("Error() = %q does not include the provider's message", e.Error())
				}
				if n := len(srv.Requests()); n != 1 {
					t.Errorf("server got %d requests, want 1 (no retries)", n)
				}
			})
		})
	}
}

func TestStreamHangCancelled(t *testing.T) {
	eachProvider(t, func(t *testing.T, srv *llmtest.Server, p llm.Provider) {
		srv.Script(llmtest.Turn{Hang: true})
		ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
		defer cancel()
		start := time.Now()
		r := stream(ctx, p, userRequest("hi"))
		if !errors.Is(r.err, context.DeadlineExceeded) {
			t.Fatalf("err = %v, want context.DeadlineExceeded", r.err)
		}
		var e *llm.Error
		if errors.As(r.err, &e) {
			t.Errorf("err is an *llm.Error (%v); want the context's error unwrapped", e)
		}
		if elapsed := time.Since(start); elapsed > 2*time.Second {
			t.Errorf("Stream took %v to notice the cancellation", elapsed)
		}
	})
}

func TestStreamCancelledBeforeStart(t *testing.T) {
	eachProvider(t, func(t *testing.T, srv *llmtest.Server, p llm.Provider) {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		if err := stream(ctx, p, userRequest("hi")).err; !errors.Is(err, context.Canceled) {
			t.Errorf("err = %v, want context.Canceled", err)
		}
	})
}

func TestStreamConnectionRefused(t *testing.T) {
	addr := closedAddr(t)
	providers := []llm.Provider{
		llm.NewOpenAI(llm.Config{Kind: "ollama", BaseURL: "http://" + addr + "/v1", HTTPClient: testClient(t)}),
		llm.NewAnthropic(llm.Config{BaseURL: "http://" + addr, APIKey: "k", HTTPClient: testClient(t)}),
	}
	for _, p := range providers {
		t.Run(p.Name(), func(t *testing.T) {
			e := asError(t, stream(context.Background(), p, userRequest("hi")).err)
			if e.Kind != llm.KindUnavailable || e.Provider != p.Name() {
				t.Errorf("error = %+v, want KindUnavailable", e)
			}
			want := "The " + p.Name() + " model provider could not be reached: connection refused."
			if e.Error() != want {
				t.Errorf("Error() = %q, want %q", e.Error(), want)
			}
		})
	}
}

// closedAddr is a local address nothing listens on.
func closedAddr(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	return addr
}

func asError(t *testing.T, err error) *llm.Error {
	t.Helper()
	var e *llm.Error
	if !errors.As(err, &e) {
		t.Fatalf("err = %v (%T), want *llm.Error", err, err)
	}
	return e
}
