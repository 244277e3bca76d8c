package llm_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"go.uber.org/goleak"

	"github.com/wispapp/wisp/runtime/llm"
	"github.com/wispapp/wisp/runtime/llm/llmtest"
)

func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}

// testClient is an HTTP client whose connections are closed when the test ends.
func testClient(t testing.TB) *http.Client {
	t.Helper()
	tr := &http.Transport{}
	t.Cleanup(tr.CloseIdleConnections)
	return &http.Client{Transport: tr}
}

// newServer starts a fake model server closed when the test ends.
func newServer(t *testing.T) *llmtest.Server {
	t.Helper()
	srv := llmtest.New()
	t.Cleanup(srv.Close)
	return srv
}

func newOpenAI(t *testing.T, srv *llmtest.Server) *llm.OpenAI {
	return llm.NewOpenAI(llm.Config{Kind: "openai", BaseURL: srv.OpenAIURL(), APIKey: "sk-test", HTTPClient: testClient(t)})
}

func newAnthropic(t *testing.T, srv *llmtest.Server) *llm.Anthropic {
	return llm.NewAnthropic(llm.Config{BaseURL: srv.AnthropicURL(), APIKey: "sk-ant-test", HTTPClient: testClient(t)})
}

// eachProvider runs f for both providers, each against its own fake server.
func eachProvider(t *testing.T, f func(t *testing.T, srv *llmtest.Server, p llm.Provider)) {
	makers := []struct {
		name string
		make func(*testing.T, *llmtest.Server) llm.Provider
	}{
		{"openai", func(t *testing.T, s *llmtest.Server) llm.Provider { return newOpenAI(t, s) }},
		{"anthropic", func(t *testing.T, s *llmtest.Server) llm.Provider { return newAnthropic(t, s) }},
	}
	for _, m := range makers {
		t.Run(m.name, func(t *testing.T) {
			srv := newServer(t)
			f(t, srv, m.make(t, srv))
		})
	}
}

// result is what one Stream call produced.
type result struct {
	deltas []llm.Delta
	resp   llm.Response
	err    error
}

func stream(ctx context.Context, p llm.Provider, req llm.Request) result {
	var r result
	r.resp, r.err = p.Stream(ctx, req, func(d llm.Delta) { r.deltas = append(r.deltas, d) })
	return r
}

// texts are the Text of the deltas of kind.
func (r result) texts(kind llm.DeltaKind) []string {
	var out []string
	for _, d := range r.deltas {
		if d.Kind == kind {
			out = append(out, d.Text)
		}
	}
	return out
}

func (r result) toolCalls() []llm.ToolCall {
	var out []llm.ToolCall
	for _, d := range r.deltas {
		if d.Kind == llm.DeltaToolCall {
			out = append(out, *d.ToolCall)
		}
	}
	return out
}

func userRequest(text string) llm.Request {
	return llm.Request{Model: "fake", System: "Be brief.", Messages: []llm.Message{{Role: llm.RoleUser, Text: text}}}
}

func equalStrings(a, b []string) bool {
	return strings.Join(a, "\x00") == strings.Join(b, "\x00") && len(a) == len(b)
}
