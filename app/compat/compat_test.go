package compat

import (
	"encoding/json"
	"errors"
	"net/http"
	"testing"
)

func TestAnthropicTurn(t *testing.T) {
	for _, c := range []struct {
		body, err string
		history   int
	}{
		{`{"max_tokens":5,"messages":[{"role":"user","content":"a"},{"role":"assistant","content":[{"type":"text","text":"b"}]},{"role":"user","content":"c"}]}`, "", 2},
		{`{"max_tokens":5,"messages":[]}`, "messages must not be empty", 0},
		{`{"messages":[{"role":"user","content":"a"}]}`, "max_tokens: a whole number of at least 1 is required", 0},
		{`{"max_tokens":5,"messages":[{"role":"system","content":"a"}]}`, "messages.0.role must be user or assistant", 0},
		{`{"max_tokens":5,"messages":[{"role":"user","content":[{"type":"document"}]}]}`, `content blocks of type "document" are not supported`, 0},
		{`{"max_tokens":5,"messages":[{"role":"user","content":"a"},{"role":"assistant","content":"b"}]}`, "the last message must be a non-empty user message", 0},
	} {
		var req AnthropicRequest
		if err := json.Unmarshal([]byte(c.body), &req); err != nil {
			t.Fatal(err)
		}
		history, _, err := req.Turn()
		var ce *Error
		switch {
		case c.err == "" && (err != nil || len(history) != c.history):
			t.Errorf("%s: %v, %d messages", c.body, err, len(history))
		case c.err != "" && (!errors.As(err, &ce) || ce.Msg != c.err || ce.Status != http.StatusBadRequest || ce.Type != "invalid_request_error"):
			t.Errorf("%s: %v, want %q", c.body, err, c.err)
		}
	}
}

func TestOpenAITurn(t *testing.T) {
	models := []string{"wisp", "Luna"}
	for _, c := range []struct {
		body, err string
		history   int
	}{
		{`{"model":"luna","messages":[{"role":"system","content":"x"},{"role":"user","content":[{"type":"text","text":"a"}]},{"role":"assistant","content":"b"},{"role":"user","content":"c"}]}`, "", 2},
		{`{"model":"gpt-4o","messages":[{"role":"user","content":"a"}]}`, "model_not_found", 0},
		{`{"model":"wisp","messages":[{"role":"tool","content":"a"}]}`, "invalid_request_error", 0},
		{`{"model":"wisp","messages":[{"role":"user","content":" "}]}`, "invalid_request_error", 0},
		{`{"model":"wisp","max_tokens":-1,"messages":[{"role":"user","content":"a"}]}`, "invalid_request_error", 0},
	} {
		var req OpenAIRequest
		if err := json.Unmarshal([]byte(c.body), &req); err != nil {
			t.Fatal(err)
		}
		history, _, _, err := req.Turn(models)
		body := OpenAIError(http.StatusBadRequest, "", err)
		got := body.Error.Type
		if body.Error.Code != nil {
			got = *body.Error.Code
		}
		switch {
		case c.err == "" && (err != nil || len(history) != c.history):
			t.Errorf("%s: %v, %d messages", c.body, err, len(history))
		case c.err != "" && got != c.err:
			t.Errorf("%s: %v (%s), want %s", c.body, err, got, c.err)
		}
	}
}

// The error types are the ones Anthropic's and OpenAI's APIs use for each status.
func TestErrorShapes(t *testing.T) {
	for status, want := range map[int]string{400: "invalid_request_error", 401: "authentication_error", 403: "permission_error",
		404: "not_found_error", 409: "invalid_request_error", 413: "request_too_large", 415: "invalid_request_error",
		429: "rate_limit_error", 500: "api_error", 502: "api_error", 503: "api_error", 529: "overloaded_error"} {
		if got := AnthropicError(status, "m", nil); got.Type != "error" || got.Error.Type != want || got.Error.Message != "m" {
			t.Errorf("%d: %+v, want %s", status, got, want)
		}
	}
	for status, want := range map[int]string{400: "invalid_request_error/", 401: "invalid_request_error/invalid_api_key",
		404: "invalid_request_error/", 429: "requests/rate_limit_exceeded", 500: "server_error/", 503: "server_error/"} {
		b := OpenAIError(status, "m", nil)
		got := b.Error.Type + "/"
		if b.Error.Code != nil {
			got += *b.Error.Code
		}
		if got != want || b.Error.Message != "m" {
			t.Errorf("%d: %s, want %s", status, got, want)
		}
	}
	if got := AnthropicError(404, "m", AnthropicModelNotFound("x")); got.Error.Type != "not_found_error" {
		t.Errorf("model not found: %+v", got)
	}
}

// No request body makes the translations panic; a refused one says why in the API's
// words.
func FuzzTurn(f *testing.F) {
	f.Add(`{"model":"wisp","max_tokens":5,"messages":[{"role":"user","content":"a"}]}`)
	f.Add(`{"messages":[{"role":"user","content":[{"type":"text","text":"a"}]}]}`)
	f.Add(`{"model":"wisp","max_tokens":5,"messages":[{"role":"user","content":[{"type":"image","source":{"type":"base64","media_type":"image/png","data":"iVBORw0K"}},{"type":"image_url","image_url":{"url":"data:image/png;base64,iVBORw0K"}}]}]}`)
	f.Fuzz(func(t *testing.T, body string) {
		var a AnthropicRequest
		if json.Unmarshal([]byte(body), &a) == nil {
			if _, _, err := a.Turn(); err != nil {
				var ce *Error
				if !errors.As(err, &ce) || ce.Type == "" {
					t.Fatalf("anthropic: %v is not an API error", err)
				}
			}
		}
		var o OpenAIRequest
		if json.Unmarshal([]byte(body), &o) == nil {
			if _, _, _, err := o.Turn([]string{"wisp"}); err != nil {
				var ce *Error
				if !errors.As(err, &ce) || ce.Type == "" {
					t.Fatalf("openai: %v is not an API error", err)
				}
			}
		}
	})
}
