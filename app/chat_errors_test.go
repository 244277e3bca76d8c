package app

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/wispapp/wisp/app/store"
	"github.com/wispapp/wisp/runtime/llm/llmtest"
)

// Provider failures end the stream with a clear error frame (never a hang), the run
// is marked failed and the reply records why.
func TestProviderErrorsBecomeChatErrors(t *testing.T) {
	cases := []struct {
		name string
		turn llmtest.Turn
		want string
	}{
		{"401", llmtest.ErrorTurn(401, "Incorrect API key provided"), "rejected the api key"},
		{"429", llmtest.ErrorTurn(429, "Rate limit reached"), "rate limit"},
		{"500", llmtest.ErrorTurn(500, "boom"), "server error"},
		{"cut", llmtest.Turn{Text: []string{"Half ", "a ", "reply"}, CutAfter: 2}, "cut off"},
		{"mid-stream error", llmtest.Turn{Text: []string{"Half"}, ErrorEvent: "overloaded"}, "overloaded"},
	}
	c := startChat(t, t.TempDir())
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c.fake.Script(tc.turn)
			conv := c.newConversation()
			s := c.stream(conv, "hello")
			frames := s.all(t)
			last := frames[len(frames)-1]
			if last.typ() != "error" || !strings.Contains(strings.ToLower(last.str("message")), tc.want) {
				t.Fatalf("last frame %s, want an error about %q", last.Raw, tc.want)
			}
			if st := c.waitRun(s.resp.Header.Get("X-Wisp-Run-Id")); st != "failed" {
				t.Fatalf("run status %s", st)
			}
			msgs := c.messages(conv)
			if len(msgs) != 2 || msgs[1].Status != "failed" || msgs[1].Error != last.str("message") {
				t.Fatalf("messages %+v", msgs)
			}
			var rows struct {
				DisplayMessages []struct{ ContentType, MessageType string }
			}
			c.call("GET", "/api/conversations/"+conv+"/display-messages", nil, &rows)
			if n := len(rows.DisplayMessages); n == 0 || rows.DisplayMessages[n-1].ContentType != "error" {
				t.Fatalf("display rows %+v", rows.DisplayMessages)
			}
		})
	}
}

// Without a usable model chat answers 503 with the reason, and status says why.
func TestNoProviderAnswers503(t *testing.T) {
	a := startApp(t, testOptions(t, t.TempDir(), nil))
	c := &chatApp{App: a, t: t}
	t.Cleanup(func() { a.Stop() })
	var st map[string]any
	c.call("GET", "/api/status", nil, &st)
	reason, _ := st["canRespondReason"].(string)
	if st["canRespond"] != false || !strings.Contains(reason, "Ollama") {
		t.Fatalf("status %v", st)
	}
	conv := c.newConversation()
	var out map[string]string
	if code := c.call("POST", "/api/conversations/"+conv+"/messages/stream", map[string]string{"text": "hi"}, &out); code != 503 || out["error"] != reason {
		t.Fatalf("stream: %d %v", code, out)
	}
	if code := c.call("POST", "/api/conversations/"+conv+"/messages", map[string]string{"text": "hi"}, &out); code != 503 {
		t.Fatalf("send: %d %v", code, out)
	}
	if len(c.messages(conv)) != 0 {
		t.Fatal("a refused message was saved")
	}
}

// A provider set up through the API works at once, and the key is never echoed.
func TestProviderSetupAppliesAtOnce(t *testing.T) {
	fake := llmtest.New()
	defer fake.Close()
	a := startApp(t, testOptions(t, t.TempDir(), nil))
	c := &chatApp{App: a, t: t, fake: fake}
	t.Cleanup(func() { a.Stop() })
	var info map[string]any
	if code := c.call("PUT", "/api/provider", map[string]string{"provider": "openai", "baseURL": "ftp://x"}, &info); code != 400 {
		t.Fatalf("bad URL: %d", code)
	}
	body := map[string]string{"provider": "openai", "baseURL": fake.OpenAIURL(), "model": "fake", "apiKey": "sk-secret"}
	if code := c.call("PUT", "/api/provider", body, &info); code != 200 || info["canRespond"] != true || info["hasApiKey"] != true {
		t.Fatalf("setup: %d %v", code, info)
	}
	raw := map[string]any{}
	c.call("GET", "/api/provider", nil, &raw)
	for k, v := range raw {
		if s, ok := v.(string); ok && strings.Contains(s, "sk-secret") {
			t.Fatalf("the key leaked in %s", k)
		}
	}
	fake.Script(llmtest.TextTurn("It works", 0))
	frames := c.stream(c.newConversation(), "hi").all(t)
	if last := frames[len(frames)-1]; last.str("fullText") != "It works" {
		t.Fatalf("last frame %s", last.Raw)
	}
	if got := fake.Requests()[0].Header.Get("Authorization"); got != "Bearer sk-secret" {
		t.Fatalf("provider saw Authorization %q", got)
	}
}

// One reply at a time per conversation; bad input is refused clearly.
func TestSendConflictsAndBadInput(t *testing.T) {
	c := startChat(t, t.TempDir())
	c.fake.Script(llmtest.Turn{Hang: true})
	conv := c.newConversation()
	s := c.stream(conv, "wait")
	var out map[string]any
	if code := c.call("POST", "/api/conversations/"+conv+"/messages/stream", map[string]string{"text": "again"}, &out); code != 409 {
		t.Fatalf("second send: %d %v", code, out)
	}
	runID := s.resp.Header.Get("X-Wisp-Run-Id")
	if code := c.call("POST", "/api/runs/"+runID+"/cancel", map[string]any{}, &out); code != 200 {
		t.Fatalf("cancel: %d %v", code, out)
	}
	frames := s.all(t)
	if last := frames[len(frames)-1]; last.typ() != "error" || !strings.Contains(last.str("message"), "stopped by the user") {
		t.Fatalf("last frame %s", last.Raw)
	}
	for _, tc := range []struct {
		path string
		body any
		code int
	}{
		{"/api/conversations/" + conv + "/messages/stream", map[string]string{"text": "  "}, 400},
		{"/api/conversations/" + conv + "/messages/stream", map[string]string{"text": strings.Repeat("x", 32001)}, 400},
		{"/api/conversations/nope/messages/stream", map[string]string{"text": "hi"}, 404},
		{"/api/conversations/" + conv + "/messages/truncate", map[string]string{"messageId": "nope"}, 404},
		{"/api/runs/nope/stream", nil, 404},
	} {
		method := "POST"
		if tc.body == nil {
			method = "GET"
		}
		out = nil
		if code := c.call(method, tc.path, tc.body, &out); code != tc.code || out["error"] == nil {
			t.Errorf("%s %s: %d %v, want %d", method, tc.path, code, out, tc.code)
		}
	}
}

// Stopping Wisp interrupts a run and keeps what it said; a run a crashed process left
// active is closed at the next start with its partial reply.
func TestRunsSurviveStopAndCrash(t *testing.T) {
	dir := t.TempDir()
	c := startChat(t, dir)
	c.fake.Script(llmtest.Turn{Text: []string{"Partial ", "answer", " never finished"}, Delay: 300 * time.Millisecond})
	conv := c.newConversation()
	s := c.stream(conv, "long one")
	runID := s.resp.Header.Get("X-Wisp-Run-Id")
	for {
		f, ok := s.next(t)
		if !ok {
			t.Fatal("stream ended early")
		}
		if f.str("fullText") == "Partial " {
			break
		}
	}
	if err := c.Stop(); err != nil {
		t.Fatal(err)
	}

	// A crash: a run left active with some events on disk.
	st, err := store.Open(context.Background(), dir+"/wisp.db")
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	now := time.Now()
	if _, err := st.AddMessage(ctx, store.Message{ID: "u2", ConversationID: conv, Role: "user", Text: "again", CreatedAt: now}); err != nil {
		t.Fatal(err)
	}
	if err := st.CreateRun(ctx, store.Run{ID: "crashed", ConversationID: conv, UserMessageID: "u2", Status: "active", StartedAt: now}); err != nil {
		t.Fatal(err)
	}
	if err := st.AppendRunEvents(ctx, []store.RunEvent{{RunID: "crashed", Seq: 1, Type: "text_delta", Data: []byte(`{"text":"Said before the crash"}`), Time: now}}); err != nil {
		t.Fatal(err)
	}
	st.Close()

	b := startChatWith(t, dir, c.fake)
	msgs := b.messages(conv)
	if len(msgs) != 4 {
		t.Fatalf("messages %+v", msgs)
	}
	if m := msgs[1]; m.RunID != runID || m.Status != "interrupted" || m.Text != "Partial " || !strings.Contains(m.Error, "shutting down") {
		t.Fatalf("interrupted reply %+v", m)
	}
	if m := msgs[3]; m.RunID != "crashed" || m.Status != "interrupted" || m.Text != "Said before the crash" {
		t.Fatalf("recovered reply %+v", m)
	}
	frames := b.resume("crashed", 0)
	// Seed 001: what was said, then stream_resync from it, then the end.
	if last := frames[len(frames)-1]; len(frames) != 3 || frames[1].typ() != "stream_resync" ||
		frames[1].Data["fromSequence"] != 1.0 || frames[1].Data["reason"] != "crash_recovery" || last.typ() != "error" {
		t.Fatalf("recovered run log %+v", frames)
	}
}

// With nothing configured Wisp uses a local Ollama that answers, with its first model.
func TestOllamaDetectedWhenNothingConfigured(t *testing.T) {
	ollama := llmtest.New() // speaks Ollama's /api/tags and the OpenAI dialect under /v1
	defer ollama.Close()
	ollama.SetModels("llama3.2:latest", "qwen3:8b")
	opts := testOptions(t, t.TempDir(), nil)
	opts.OllamaURL = ollama.URL
	opts.NoTitles = true
	a := startApp(t, opts)
	t.Cleanup(func() { a.Stop() })
	c := &chatApp{App: a, t: t, fake: ollama}
	var st map[string]any
	c.call("GET", "/api/status", nil, &st)
	if st["canRespond"] != true || st["provider"] != "ollama" || st["model"] != "llama3.2:latest" {
		t.Fatalf("status %v", st)
	}
	ollama.Script(llmtest.TextTurn("Hi from Ollama", 0))
	frames := c.stream(c.newConversation(), "hello").all(t)
	if last := frames[len(frames)-1]; last.str("fullText") != "Hi from Ollama" {
		t.Fatalf("last frame %s", last.Raw)
	}
	if got := ollama.Requests()[0].Model; got != "llama3.2:latest" {
		t.Fatalf("model sent %q", got)
	}
}
