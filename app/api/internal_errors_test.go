package api

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/wispapp/wisp/app/chat"
	"github.com/wispapp/wisp/runtime"
	"github.com/wispapp/wisp/runtime/llm"
)

// failingAgent fails every turn with err.
type failingAgent struct{ err error }

func (f failingAgent) Turn(context.Context, runtime.Input, runtime.Emit) (runtime.Result, error) {
	return runtime.Result{}, f.err
}

func (f failingAgent) Resume(context.Context, runtime.ResumeInput, runtime.Emit) (runtime.Result, error) {
	return runtime.Result{}, f.err
}
func (failingAgent) Title(context.Context, string, string) (string, llm.Usage) {
	return "", llm.Usage{}
}
func (failingAgent) Settings() runtime.Settings { return runtime.Settings{} }

// The routes of other dialects (Anthropic's /v1/messages, OpenAI's
// /v1/chat/completions), streamed or not: an internal failure of the turn is
// "internal error" to the client and whole in the log.
func TestDialectsHideInternalErrors(t *testing.T) {
	secret := errors.New("open /home/me/.local/state/wisp/wisp.db: disk I/O error")
	var log bytes.Buffer
	s := New(Options{Guard: NewGuard(GuardOptions{Port: 1}), Logger: slog.New(slog.NewTextHandler(&log, nil)),
		Chat: chat.New(chat.Options{Agent: failingAgent{secret}}), CanRespond: func() (bool, string) { return true, "" }})
	h := s.Handler()
	for _, tc := range []struct{ path, body string }{
		{"/v1/messages", `{"model":"wisp","max_tokens":10,"messages":[{"role":"user","content":"hi"}]}`},
		{"/v1/messages", `{"model":"wisp","max_tokens":10,"stream":true,"messages":[{"role":"user","content":"hi"}]}`},
		{"/v1/chat/completions", `{"model":"wisp","messages":[{"role":"user","content":"hi"}]}`},
		{"/v1/chat/completions", `{"model":"wisp","stream":true,"messages":[{"role":"user","content":"hi"}]}`},
	} {
		log.Reset()
		r := httptest.NewRequest("POST", "http://127.0.0.1:1"+tc.path, strings.NewReader(tc.body))
		r.Header.Set("Content-Type", "application/json")
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, r)
		body, _ := io.ReadAll(rec.Body)
		if strings.Contains(string(body), "wisp.db") || !strings.Contains(string(body), "internal error") {
			t.Errorf("%s %s: %d %s", tc.path, tc.body[len(tc.body)-60:], rec.Code, body)
		}
		if !strings.Contains(log.String(), "disk I/O error") {
			t.Errorf("%s: the detail is not in the log: %q", tc.path, log.String())
		}
	}
}

// No internal error's text reaches a client, in any dialect, as a status or in a
// stream: the client reads "internal error" and the log has the detail. A model's
// own failure is not internal: it says what the provider said.
func TestInternalErrorsSayNothing(t *testing.T) {
	secret := errors.New("open /home/me/.local/state/wisp/wisp.db: disk I/O error")
	var log bytes.Buffer
	s := &Server{log: slog.New(slog.NewTextHandler(&log, nil)), guard: NewGuard(GuardOptions{Port: 1})}
	stream := func(w http.ResponseWriter, r *http.Request) error {
		sse, err := startSSE(w)
		if err != nil {
			return err
		}
		defer sse.stop()
		return sse.data([]byte(fmt.Sprintf(`{"error":%q}`, s.clientMessage(r, secret))))
	}
	fail := func(err error) handlerFunc {
		return func(http.ResponseWriter, *http.Request) error { return fmt.Errorf("complete: %w", err) }
	}
	for _, tc := range []struct {
		name    string
		h       http.Handler
		status  int
		message string
	}{
		{"wisp", s.handle(fail(secret)), 500, "internal error"},
		{"anthropic", s.v1Handle(fail(secret)), 500, "internal error"},
		{"openai", s.oaiHandle(fail(secret)), 500, "internal error"},
		{"stream", s.handle(stream), 200, "internal error"},
		{"model failed", s.v1Handle(fail(&llm.Error{Kind: llm.KindServer, Provider: "anthropic", Status: 529, Message: "Overloaded"})), 502, "Overloaded"},
		{"model rate limit", s.oaiHandle(fail(&llm.Error{Kind: llm.KindRateLimit, Provider: "openai", Status: 429, Message: "slow down"})), 429, "slow down"},
	} {
		log.Reset()
		rec := httptest.NewRecorder()
		tc.h.ServeHTTP(rec, httptest.NewRequest("GET", "/v1/messages", nil))
		body := rec.Body.String()
		if rec.Code != tc.status || !strings.Contains(body, tc.message) || strings.Contains(body, "wisp.db") {
			t.Errorf("%s: %d %s", tc.name, rec.Code, body)
		}
		if internal := tc.message == "internal error"; internal != strings.Contains(log.String(), "wisp.db: disk I/O error") {
			t.Errorf("%s: log %q", tc.name, log.String())
		}
	}
}
