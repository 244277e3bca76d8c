package llm_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/wispapp/wisp/runtime/llm"
	"github.com/wispapp/wisp/runtime/llm/llmtest"
	"github.com/wispapp/wisp/runtime/llm/tokens"
)

// TestUsageThroughBothWires checks that the fake's counts and scripted cache tokens
// arrive in llm.Usage through each provider's own usage fields.
func TestUsageThroughBothWires(t *testing.T) {
	eachProvider(t, func(t *testing.T, srv *llmtest.Server, p llm.Provider) {
		req := userRequest(strings.Repeat("a fairly long question about caching ", 20))
		srv.Script(llmtest.Turn{Text: []string{"Cached", " answer."}, CacheReadTokens: 100, CacheWriteTokens: 20})
		r := stream(context.Background(), p, req)
		if r.err != nil {
			t.Fatalf("Stream: %v", r.err)
		}
		rcv := srv.Requests()[0]
		c := tokens.For("fake")
		if want := tokens.Request(c, rcv.Request()); rcv.Tokens != want || want < 100 {
			t.Fatalf("fake counted %d, want %d", rcv.Tokens, want)
		}
		// OpenAI has no cache write field: the fake sends OpenRouter's
		// prompt_tokens_details.cache_write_tokens.
		want := llm.Usage{InputTokens: rcv.Tokens, OutputTokens: c.Count("Cached answer."), CacheReadTokens: 100, CacheWriteTokens: 20}
		if r.resp.Usage != want {
			t.Fatalf("usage %+v, want %+v", r.resp.Usage, want)
		}
	})
}

// TestWindowRefusesWithTheProvidersError checks that a prompt over the fake's window
// gets each provider's real error, recognised as context too long, and that a
// prompt within it is answered.
func TestWindowRefusesWithTheProvidersError(t *testing.T) {
	eachProvider(t, func(t *testing.T, srv *llmtest.Server, p llm.Provider) {
		srv.SetWindow(200)
		srv.Script(llmtest.TextTurn("fits", 0))
		long := userRequest(strings.Repeat("word ", 400))
		r := stream(context.Background(), p, long)
		if !llm.IsContextTooLong(r.err) {
			t.Fatalf("over the window: %v", r.err)
		}
		msg := r.err.Error()
		if !strings.Contains(msg, "too long for the model's context window") || !strings.Contains(msg, "200") {
			t.Errorf("message %q", msg)
		}
		if srv.Pending() != 1 {
			t.Errorf("the refused request took a turn")
		}
		r = stream(context.Background(), p, userRequest("short"))
		if r.err != nil || r.resp.Text != "fits" {
			t.Fatalf("within the window: %q, %v", r.resp.Text, r.err)
		}
		reqs := srv.Requests()
		if len(reqs) != 2 || !reqs[0].Over || reqs[1].Over || reqs[0].Tokens <= 200 || reqs[1].Tokens > 200 {
			t.Fatalf("requests: over %v/%v, tokens %d/%d", reqs[0].Over, reqs[1].Over, reqs[0].Tokens, reqs[1].Tokens)
		}
		if r.resp.Usage.InputTokens != reqs[1].Tokens {
			t.Errorf("prompt tokens %d, fake counted %d", r.resp.Usage.InputTokens, reqs[1].Tokens)
		}
	})
}

// TestWindowCountsToolSchemas checks that the tools' schemas are part of the count,
// as they are part of the prompt.
func TestWindowCountsToolSchemas(t *testing.T) {
	eachProvider(t, func(t *testing.T, srv *llmtest.Server, p llm.Provider) {
		schema, _ := json.Marshal(map[string]any{"type": "object", "description": strings.Repeat("a long schema ", 100)})
		req := userRequest("hi")
		stream(context.Background(), p, req)
		req.Tools = []llm.Tool{{Name: "big", Description: "A tool.", Parameters: schema}}
		stream(context.Background(), p, req)
		reqs := srv.Requests()
		if len(reqs) != 2 || reqs[1].Tokens-reqs[0].Tokens < 200 {
			t.Fatalf("tokens without and with the tool: %d, %d", reqs[0].Tokens, reqs[1].Tokens)
		}
	})
}
