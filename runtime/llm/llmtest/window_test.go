package llmtest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/wispapp/wisp/runtime/llm/tokens"
)

func TestWindowErrorBodies(t *testing.T) {
	s := newTestServer(t)
	s.SetWindow(50)
	long := strings.Repeat("many words ", 100)
	openAI := fmt.Sprintf(`{"model":"gpt-4o","messages":[{"role":"user","content":%q}]}`, long)
	status, body := post(t, s.OpenAIURL()+"/chat/completions", openAI)
	tokens := s.Requests()[0].Tokens
	want := fmt.Sprintf(`{"error":{"code":"context_length_exceeded","message":"This model's maximum context length is 50 tokens. However, your messages resulted in %d tokens. Please reduce the length of the messages.","param":"messages","type":"invalid_request_error"}}`, tokens)
	if status != http.StatusBadRequest || strings.TrimSpace(body) != want {
		t.Errorf("openai: %d %s\nwant %s", status, body, want)
	}

	anthropic := fmt.Sprintf(`{"model":"claude-x","max_tokens":10,"messages":[{"role":"user","content":%q}]}`, long)
	status, body = post(t, s.AnthropicURL()+"/v1/messages", anthropic)
	tokens = s.Requests()[1].Tokens
	var got struct {
		Type  string `json:"type"`
		Error struct{ Type, Message string }
	}
	if err := json.Unmarshal([]byte(body), &got); err != nil || status != http.StatusBadRequest || got.Type != "error" ||
		got.Error.Type != "invalid_request_error" || got.Error.Message != fmt.Sprintf("prompt is too long: %d tokens > 50 maximum", tokens) {
		t.Errorf("anthropic: %d %s", status, body)
	}
	for i, r := range s.Requests() {
		if !r.Over || r.Tokens <= 50 {
			t.Errorf("request %d: over %v, tokens %d", i, r.Over, r.Tokens)
		}
	}
}

func TestWindowIsListed(t *testing.T) {
	s := newTestServer(t)
	s.SetModels("small", "big")
	show := func(name string) (int, string) { return post(t, s.URL+"/api/show", fmt.Sprintf(`{"model":%q}`, name)) }

	if body := get(t, s.OpenAIURL()+"/models"); strings.Contains(body, "context_length") {
		t.Errorf("no window, but /v1/models says %s", body)
	}
	if status, body := show("small"); status != http.StatusOK || strings.Contains(body, "context_length") || strings.Contains(body, "num_ctx") {
		t.Errorf("no window, but /api/show says %d %s", status, body)
	}

	s.SetWindow(6000)
	var list struct {
		Data []struct {
			ID            string `json:"id"`
			ContextLength int    `json:"context_length"`
		} `json:"data"`
	}
	if err := json.Unmarshal([]byte(get(t, s.OpenAIURL()+"/models")), &list); err != nil || len(list.Data) != 2 ||
		list.Data[0].ContextLength != 6000 || list.Data[1].ContextLength != 6000 {
		t.Errorf("/v1/models: %+v %v", list, err)
	}
	status, body := show("big")
	var info struct {
		ModelInfo  map[string]any `json:"model_info"`
		Parameters string         `json:"parameters"`
	}
	if err := json.Unmarshal([]byte(body), &info); err != nil || status != http.StatusOK ||
		info.ModelInfo["llama.context_length"] != float64(6000) || strings.Join(strings.Fields(info.Parameters), " ") != "num_ctx 6000" {
		t.Errorf("/api/show: %d %s", status, body)
	}
	if status, _ := show("missing"); status != http.StatusNotFound {
		t.Errorf("/api/show of a missing model: %d", status)
	}
}

func TestCountCacheRemembersLongTexts(t *testing.T) {
	var c countCache
	counter := c.counter("gpt-4o")
	long := strings.Repeat("remember me ", 100)
	want := tokens.For("gpt-4o").Count(long)
	if got := counter.Count(long); got != want {
		t.Fatalf("first count %d, want %d", got, want)
	}
	if got := counter.Count(long); got != want || len(c.by) != 1 || c.bytes != len(long) {
		t.Fatalf("second count %d, cache %d entries, %d bytes", got, len(c.by), c.bytes)
	}
	if counter.Count("short"); len(c.by) != 1 {
		t.Fatal("a short text was cached")
	}
	if got := c.counter("claude").Count(long); got == want || len(c.by) != 2 {
		t.Fatalf("another encoding's count: %d, cache %d entries", got, len(c.by))
	}
}
