package llm

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
)

// TestContextTooLongIsRecognised feeds the error bodies servers really send when a
// prompt does not fit through the HTTP error path.
func TestContextTooLongIsRecognised(t *testing.T) {
	tests := []struct {
		name   string
		status int
		body   string
		want   ErrorKind
	}{
		{"openai", 400, `{"error":{"message":"This model's maximum context length is 6000 tokens. However, your messages resulted in 10600 tokens. Please reduce the length of the messages.","type":"invalid_request_error","param":"messages","code":"context_length_exceeded"}}`, KindContextLength},
		{"openai code only", 400, `{"error":{"message":"too long","type":"invalid_request_error","code":"context_length_exceeded"}}`, KindContextLength},
		{"anthropic", 400, `{"type":"error","error":{"type":"invalid_request_error","message":"prompt is too long: 210000 tokens > 200000 maximum"}}`, KindContextLength},
		{"llama.cpp", 400, `{"error":{"code":400,"message":"request (4476 tokens) exceeds the available context size (4096 tokens), try increasing it","type":"exceed_context_size_error","n_prompt_tokens":4476,"n_ctx":4096}}`, KindContextLength},
		{"llama.cpp type only", 400, `{"error":{"code":400,"message":"x","type":"exceed_context_size_error"}}`, KindContextLength},
		{"vllm", 400, `{"object":"error","message":"This model's maximum context length is 4096 tokens. However, you requested 5000 tokens (4000 in the messages, 1000 in the completion). Please reduce the length of the messages or completion.","type":"BadRequestError","param":null,"code":400}`, KindContextLength},
		{"lm studio", 400, `{"error":"Trying to keep the first 10136 tokens when context the overflows. However, the model is loaded with context length of only 7866 tokens, which is not enough."}`, KindContextLength},
		{"lm studio n_keep", 400, `{"error":"The number of tokens to keep from the initial prompt is greater than the context length (n_keep: 10247 >= n_ctx: 4096)."}`, KindContextLength},
		{"ollama", 400, `{"error":"the input length exceeds the context length"}`, KindContextLength},
		{"gemini", 400, `[{"error":{"code":400,"message":"The input token count (1200000) exceeds the maximum number of tokens allowed (1048576).","status":"INVALID_ARGUMENT"}}]`, KindContextLength},
		{"server error saying so", 500, `{"error":"prompt is too long"}`, KindContextLength},
		{"rate limit on tokens", 429, `{"error":{"message":"Request too large for gpt-4o: maximum context length exceeded per minute","type":"tokens","code":"rate_limit_exceeded"}}`, KindRateLimit},
		{"other bad request", 400, `{"error":{"message":"Unknown model","type":"invalid_request_error"}}`, KindBadRequest},
		{"auth", 401, `{"error":{"message":"prompt is too long","type":"authentication_error"}}`, KindAuth},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			x := &exchange{provider: "openai"}
			_, err := x.middleware(&http.Request{}, func(*http.Request) (*http.Response, error) {
				return &http.Response{StatusCode: tt.status, Body: io.NopCloser(strings.NewReader(tt.body))}, nil
			})
			e, ok := err.(*Error)
			if !ok {
				t.Fatalf("error %T %v", err, err)
			}
			if e.Kind != tt.want {
				t.Fatalf("kind %s, want %s (%v)", e.Kind, tt.want, err)
			}
			if got := IsContextTooLong(fmt.Errorf("turn: %w", err)); got != (tt.want == KindContextLength) {
				t.Fatalf("IsContextTooLong = %v", got)
			}
		})
	}
}

func TestContextTooLongInAStreamEvent(t *testing.T) {
	x := &exchange{provider: "anthropic"}
	err := x.eventError([]byte(`{"type":"error","error":{"type":"invalid_request_error","message":"prompt is too long: 7000 tokens > 6000 maximum"}}`), "")
	if !IsContextTooLong(err) {
		t.Fatalf("not recognised: %v", err)
	}
	if IsContextTooLong(x.eventError([]byte(`{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`), "")) {
		t.Fatal("overloaded taken for context too long")
	}
	if IsContextTooLong(context.Canceled) || IsContextTooLong(nil) {
		t.Fatal("a non-provider error taken for context too long")
	}
}
