package llm

import (
	"encoding/json"
	"testing"

	"github.com/anthropics/anthropic-sdk-go"
)

func TestOpenAIUsageFields(t *testing.T) {
	tests := []struct {
		name, json string
		want       Usage
	}{
		{"plain", `{"prompt_tokens":12,"completion_tokens":3}`, Usage{InputTokens: 12, OutputTokens: 3}},
		{"openai cached", `{"prompt_tokens":2006,"completion_tokens":300,"prompt_tokens_details":{"cached_tokens":1920}}`, Usage{InputTokens: 2006, OutputTokens: 300, CacheReadTokens: 1920}},
		{"openrouter write", `{"prompt_tokens":100,"completion_tokens":1,"prompt_tokens_details":{"cached_tokens":0,"cache_write_tokens":80}}`, Usage{InputTokens: 100, OutputTokens: 1, CacheWriteTokens: 80}},
		{"deepseek", `{"prompt_tokens":100,"completion_tokens":1,"prompt_cache_hit_tokens":64}`, Usage{InputTokens: 100, OutputTokens: 1, CacheReadTokens: 64}},
		{"negative and absurd", `{"prompt_tokens":-5,"completion_tokens":100000001,"prompt_tokens_details":{"cached_tokens":-1}}`, Usage{}},
	}
	for _, tt := range tests {
		var u openAIUsage
		if err := json.Unmarshal([]byte(tt.json), &u); err != nil {
			t.Fatal(err)
		}
		if got := u.usage(); got != tt.want {
			t.Errorf("%s: usage %+v, want %+v", tt.name, got, tt.want)
		}
	}
}

func TestAnthropicUsageFields(t *testing.T) {
	events := []string{
		`{"type":"message_start","message":{"id":"m","type":"message","role":"assistant","content":[],"model":"claude","usage":{"input_tokens":10,"cache_read_input_tokens":1000,"cache_creation_input_tokens":200,"output_tokens":1}}}`,
		`{"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"output_tokens":42}}`,
	}
	a := newEventAccumulator(func(Delta) {})
	for _, raw := range events {
		var ev anthropic.MessageStreamEventUnion
		if err := json.Unmarshal([]byte(raw), &ev); err != nil {
			t.Fatal(err)
		}
		a.add(ev)
	}
	want := Usage{InputTokens: 1210, OutputTokens: 42, CacheReadTokens: 1000, CacheWriteTokens: 200}
	if got := a.response().Usage; got != want {
		t.Fatalf("usage %+v, want %+v", got, want)
	}

	a = newEventAccumulator(func(Delta) {})
	var ev anthropic.MessageStreamEventUnion
	_ = json.Unmarshal([]byte(`{"type":"message_start","message":{"usage":{"input_tokens":-3,"cache_read_input_tokens":900000000,"output_tokens":-1}}}`), &ev)
	a.add(ev)
	if got := a.response().Usage; got != (Usage{}) {
		t.Fatalf("absurd usage kept: %+v", got)
	}
}

func TestUsageAdd(t *testing.T) {
	a := Usage{InputTokens: 1, OutputTokens: 2, CacheReadTokens: 3, CacheWriteTokens: 4}
	if got := a.Add(a); got != (Usage{2, 4, 6, 8}) {
		t.Fatalf("Add = %+v", got)
	}
}
