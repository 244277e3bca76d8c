package llm

import (
	"errors"
	"io"
	"strings"
	"testing"
)

func TestErrorMessages(t *testing.T) {
	tests := []struct {
		err  Error
		want string
	}{
		{Error{Kind: KindStream, Provider: "anthropic"}, "The anthropic model provider's stream was cut off before the reply finished."},
		{Error{Kind: KindAuth, Provider: "openai", Status: 401, Message: "Incorrect API key provided."}, "The openai model provider rejected the API key (HTTP 401): Incorrect API key provided."},
		{Error{Kind: KindRateLimit, Provider: "openai", Status: 429, Message: "Rate limit reached"}, "The openai model provider is rate limiting requests (HTTP 429): Rate limit reached. Try again shortly."},
		{Error{Kind: KindServer, Provider: "anthropic", Message: "Overloaded"}, "The anthropic model provider had a server error: Overloaded. Try again shortly."},
		{Error{Kind: KindBadRequest, Provider: "ollama", Status: 404, Message: `model "x" not found, try pulling it first`}, `The ollama model provider rejected the request (HTTP 404): model "x" not found, try pulling it first.`},
		{Error{Kind: KindUnavailable, Provider: "ollama", Message: "connection refused"}, "The ollama model provider could not be reached: connection refused."},
		{Error{Kind: KindUnavailable}, "The model provider could not be reached."},
		{Error{Kind: KindContextLength, Provider: "anthropic", Status: 400, Message: "prompt is too long: 7000 tokens > 6000 maximum"}, "The anthropic model provider said the conversation is too long for the model's context window (HTTP 400): prompt is too long: 7000 tokens > 6000 maximum."},
	}
	for _, tt := range tests {
		if got := tt.err.Error(); got != tt.want {
			t.Errorf("Error() = %q\n want %q", got, tt.want)
		}
	}
}

func TestErrorUnwrap(t *testing.T) {
	e := &Error{Kind: KindStream, Err: io.ErrUnexpectedEOF}
	if !errors.Is(e, io.ErrUnexpectedEOF) {
		t.Error("the cause is lost")
	}
}

func TestParseErrorBody(t *testing.T) {
	tests := []struct {
		name string
		body string
		want providerError
	}{
		{"openai", `{"error":{"message":"Incorrect API key","type":"invalid_request_error","param":null,"code":"invalid_api_key"}}`, providerError{Message: "Incorrect API key", Type: "invalid_request_error", CodeText: "invalid_api_key"}},
		{"openai code only", `{"error":{"message":"slow down","code":"rate_limit_exceeded"}}`, providerError{Message: "slow down", Type: "rate_limit_exceeded", CodeText: "rate_limit_exceeded"}},
		{"anthropic", `{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"},"request_id":"req_1"}`, providerError{Message: "Overloaded", Type: "overloaded_error"}},
		{"ollama", `{"error":"model \"llama9\" not found"}`, providerError{Message: `model "llama9" not found`}},
		{"openrouter numeric code", `{"error":{"message":"No credits","code":402}}`, providerError{Message: "No credits", Code: 402}},
		{"message", `{"message":"nope"}`, providerError{Message: "nope"}},
		{"detail", `{"detail":"Not Found"}`, providerError{Message: "Not Found"}},
		{"plain text", "upstream timed out\nmore", providerError{Message: "upstream timed out"}},
		{"html", "<html><body>502 Bad Gateway</body></html>", providerError{}},
		{"empty", "", providerError{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := parseErrorBody([]byte(tt.body)); got != tt.want {
				t.Errorf("parseErrorBody = %+v, want %+v", got, tt.want)
			}
		})
	}
}

func FuzzParseErrorBody(f *testing.F) {
	f.Add(`{"error":{"message":"m","type":"t","code":429}}`)
	f.Add(`{"error":"x"}`)
	f.Add(`<html>`)
	f.Fuzz(func(t *testing.T, body string) {
		perr := parseErrorBody([]byte(body))
		if perr.Code != 0 && (perr.Code < 400 || perr.Code >= 600) {
			t.Errorf("code %d is not an HTTP error status", perr.Code)
		}
		if strings.HasPrefix(strings.TrimSpace(body), "<") && perr.Message != "" {
			t.Errorf("kept HTML as a message: %q", perr.Message)
		}
	})
}

func TestKindForStatus(t *testing.T) {
	tests := map[int]ErrorKind{
		400: KindBadRequest, 401: KindAuth, 402: KindBadRequest, 403: KindAuth, 404: KindBadRequest,
		422: KindBadRequest, 429: KindRateLimit, 500: KindServer, 503: KindServer, 529: KindServer,
	}
	for status, want := range tests {
		if got := kindForStatus(status); got != want {
			t.Errorf("kindForStatus(%d) = %s, want %s", status, got, want)
		}
	}
}

func TestStopReason(t *testing.T) {
	tests := []struct {
		finish string
		tools  bool
		want   string
	}{
		{"stop", false, "end_turn"},
		{"stop", true, "tool_use"},
		{"tool_calls", true, "tool_use"},
		{"function_call", true, "tool_use"},
		{"length", false, "max_tokens"},
		{"content_filter", false, "refusal"},
		{"eos", false, "eos"},
	}
	for _, tt := range tests {
		if got := stopReason(tt.finish, tt.tools); got != tt.want {
			t.Errorf("stopReason(%q, %v) = %q, want %q", tt.finish, tt.tools, got, tt.want)
		}
	}
}

func TestToolArguments(t *testing.T) {
	tests := map[string]string{
		"":             "{}",
		"  ":           "{}",
		`{"a":1}`:      `{"a":1}`,
		`{"a":`:        `"{\"a\":"`,
		"plain words ": `"plain words"`,
	}
	for in, want := range tests {
		if got := string(toolArguments(in)); got != want {
			t.Errorf("toolArguments(%q) = %s, want %s", in, got, want)
		}
	}
}
