package compat

import (
	"encoding/json"
	"math"
	"testing"

	"github.com/wispapp/wisp/runtime/llm"
)

// Usage in each API's own words: Anthropic counts the cache apart from input_tokens,
// OpenAI's prompt_tokens holds the cached ones; a provider's impossible numbers are
// not passed on.
func TestUsageInTheirWords(t *testing.T) {
	for _, tc := range []struct {
		name           string
		in             llm.Usage
		anthropic, oai string
	}{
		{"cached", llm.Usage{InputTokens: 1830, OutputTokens: 95, CacheReadTokens: 1200, CacheWriteTokens: 300},
			`{"input_tokens":330,"cache_creation_input_tokens":300,"cache_read_input_tokens":1200,"output_tokens":95}`,
			`{"prompt_tokens":1830,"completion_tokens":95,"total_tokens":1925,"prompt_tokens_details":{"cached_tokens":1200,"cache_write_tokens":300}}`},
		{"none", llm.Usage{},
			`{"input_tokens":0,"cache_creation_input_tokens":0,"cache_read_input_tokens":0,"output_tokens":0}`,
			`{"prompt_tokens":0,"completion_tokens":0,"total_tokens":0,"prompt_tokens_details":{"cached_tokens":0}}`},
		{"hostile", llm.Usage{InputTokens: -4, OutputTokens: math.MaxInt, CacheReadTokens: 10, CacheWriteTokens: -1},
			`{"input_tokens":0,"cache_creation_input_tokens":0,"cache_read_input_tokens":10,"output_tokens":0}`,
			`{"prompt_tokens":10,"completion_tokens":0,"total_tokens":10,"prompt_tokens_details":{"cached_tokens":10}}`},
	} {
		a, _ := json.Marshal(NewAnthropicUsage(tc.in))
		o, _ := json.Marshal(NewOpenAIUsage(tc.in))
		if string(a) != tc.anthropic || string(o) != tc.oai {
			t.Errorf("%s:\n%s\n%s", tc.name, a, o)
		}
	}
	end, _ := json.Marshal(AnthropicEnd("end_turn", llm.Usage{InputTokens: 20, OutputTokens: 3, CacheReadTokens: 5}))
	if want := `{"type":"message_delta","delta":{"stop_reason":"end_turn","stop_sequence":null},"usage":{"input_tokens":15,"cache_creation_input_tokens":0,"cache_read_input_tokens":5,"output_tokens":3}}`; string(end) != want {
		t.Errorf("message_delta: %s", end)
	}
}
