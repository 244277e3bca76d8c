package api

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/wispapp/wisp/app/chat"
	"github.com/wispapp/wisp/app/dialect"
	"github.com/wispapp/wisp/app/wire"
	"github.com/wispapp/wisp/runtime"
	"github.com/wispapp/wisp/runtime/llm"
)

// fakeChat is the chat service of the dialect tests: every run it starts has ended
// with events, and a completion answers with the pieces of text in reply. A method a
// test does not use panics (the embedded nil Chat).
type fakeChat struct {
	Chat
	events []runtime.Event
	reply  []string
	err    error // Complete's error

	mu    sync.Mutex
	convs []wire.Conversation
	sent  []string // conversation: text of every Send
	// turns: "edit conv/message: text" or "regenerate conv/message" of every Edit and
	// Regenerate; turnErr fails them.
	turns   []string
	turnErr error
	// inputs: every Send's and Edit's input; sendErr fails Send.
	inputs  []chat.SendInput
	sendErr error
	// completed: the messages of every Complete, the new one last.
	completed [][]llm.Message
}

func (f *fakeChat) turn(what, convID string) (*chat.Run, error) {
	f.mu.Lock()
	f.turns = append(f.turns, what)
	f.mu.Unlock()
	if f.turnErr != nil {
		return nil, f.turnErr
	}
	run := chat.EndedRun("run1", convID, chat.Outcome{Status: chat.StatusEnded})
	run.UserMessageID, run.ReplyMessageID = "new-user", "new-reply"
	return run, nil
}

func (f *fakeChat) Edit(_ context.Context, convID, messageID string, in chat.SendInput) (*chat.Run, error) {
	f.mu.Lock()
	f.inputs = append(f.inputs, in)
	f.mu.Unlock()
	return f.turn("edit "+convID+"/"+messageID+": "+in.Text, convID)
}

func (f *fakeChat) Regenerate(_ context.Context, convID, messageID string) (*chat.Run, error) {
	return f.turn("regenerate "+convID+"/"+messageID, convID)
}

func (f *fakeChat) AgentName() string { return "Wisp" }

func (f *fakeChat) Conversations(context.Context) ([]wire.Conversation, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]wire.Conversation(nil), f.convs...), nil
}

func (f *fakeChat) CreateConversation(_ context.Context, title string, meta json.RawMessage) (wire.Conversation, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	c := wire.Conversation{ID: "conv" + strconv.Itoa(len(f.convs)+1), Title: title, Metadata: meta}
	f.convs = append(f.convs, c)
	return c, nil
}

func (f *fakeChat) Conversation(_ context.Context, id string) (wire.Conversation, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, c := range f.convs {
		if c.ID == id {
			return c, nil
		}
	}
	return wire.Conversation{}, Errorf(http.StatusNotFound, "conversation not found")
}

func (f *fakeChat) Send(_ context.Context, convID string, in chat.SendInput) (*chat.Run, error) {
	f.mu.Lock()
	f.sent = append(f.sent, convID+": "+in.Text)
	f.inputs = append(f.inputs, in)
	f.mu.Unlock()
	if f.sendErr != nil {
		return nil, f.sendErr
	}
	var rep runtime.Output
	for _, ev := range f.events {
		if o, ok := ev.Data.(runtime.Output); ok {
			rep = o
		}
	}
	return chat.EndedRun("run1", convID, chat.Outcome{Status: chat.StatusEnded, FullText: rep.FullText, MessageID: rep.MessageID}), nil
}

func (f *fakeChat) Subscribe(_ context.Context, runID string, after int64, enc dialect.Encoder) (*chat.Subscription, error) {
	return chat.Replay(runID, "Wisp", f.events, after, enc), nil
}

func (f *fakeChat) Complete(_ context.Context, history []llm.Message, msg llm.Message, _ int, onText func(string)) (runtime.Result, error) {
	f.mu.Lock()
	f.completed = append(f.completed, append(slices.Clone(history), msg))
	f.mu.Unlock()
	if f.err != nil {
		return runtime.Result{}, f.err
	}
	for _, t := range f.reply {
		onText(t)
	}
	return runtime.Result{FullText: strings.Join(f.reply, ""), Usage: llm.Usage{InputTokens: 5, OutputTokens: 2}, StopReason: "end_turn"}, nil
}

const testToken = "test-token"

// newChatServer serves the API with fake as its chat service and a model configured.
func newChatServer(t *testing.T, fake *fakeChat) *httptest.Server {
	t.Helper()
	var handler http.Handler
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { handler.ServeHTTP(w, r) }))
	t.Cleanup(srv.Close)
	port, _ := strconv.Atoi(srv.URL[strings.LastIndex(srv.URL, ":")+1:])
	g := NewGuard(GuardOptions{Port: port, BindHost: "127.0.0.1", Tokens: []string{testToken}})
	s := New(Options{Guard: g, UI: testUI, Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), Chat: fake,
		CanRespond: func() (bool, string) { return true, "" },
		Status: func() wire.Status {
			return wire.Status{State: "running", AgentName: "Wisp", Model: "qwen3:8b", Provider: "ollama"}
		}})
	handler = s.Handler()
	return srv
}

// post sends a JSON body with the token and returns the status and the body.
func post(t *testing.T, srv *httptest.Server, path, body string, header ...string) (*http.Response, string) {
	t.Helper()
	r, _ := http.NewRequest(http.MethodPost, srv.URL+path, strings.NewReader(body))
	r.Header.Set("Content-Type", "application/json")
	r.Header.Set("Authorization", "Bearer "+testToken)
	for i := 0; i+1 < len(header); i += 2 {
		r.Header.Set(header[i], header[i+1])
	}
	resp, err := http.DefaultClient.Do(r)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	return resp, string(data)
}

// sseEvent is one SSE message: its event name (none: "") and data.
type sseEvent struct{ name, data string }

func readSSE(t *testing.T, body string) []sseEvent {
	t.Helper()
	var out []sseEvent
	var cur sseEvent
	sc := bufio.NewScanner(strings.NewReader(body))
	for sc.Scan() {
		line := sc.Text()
		switch {
		case line == "":
			if cur.data != "" {
				out = append(out, cur)
			}
			cur = sseEvent{}
		case strings.HasPrefix(line, "event: "):
			cur.name = strings.TrimPrefix(line, "event: ")
		case strings.HasPrefix(line, "data: "):
			cur.data = strings.TrimPrefix(line, "data: ")
		}
	}
	return out
}

// musicRun is a run that calls an action and answers.
var musicRun = []runtime.Event{
	{Type: runtime.EventThinking, Data: runtime.Thinking{Text: "The user wants music."}},
	{Type: runtime.EventThinking, Data: runtime.Thinking{Complete: true}},
	{Type: runtime.EventTextDelta, Data: runtime.TextDelta{Text: "On it."}},
	{Type: runtime.EventToolStart, Data: runtime.ToolStart{CallID: "c1", Name: "PLAY_MUSIC", Arguments: json.RawMessage(`{"song":"Song"}`)}},
	{Type: runtime.EventCallback, Data: runtime.Callback{CallID: "c1", Text: "Now playing: Song"}},
	{Type: runtime.EventToolStatus, Data: runtime.ToolStatus{CallID: "c1", Name: "PLAY_MUSIC", Status: runtime.ToolCompleted}},
	{Type: runtime.EventToolEnd, Data: runtime.ToolEnd{CallID: "c1", Name: "PLAY_MUSIC", Result: "playing"}},
	{Type: runtime.EventTextDelta, Data: runtime.TextDelta{Text: " Enjoy!"}},
	{Type: runtime.EventOutput, Data: runtime.Output{FullText: "On it.\n\nNow playing: Song Enjoy!", MessageID: "m1",
		Usage: llm.Usage{InputTokens: 10, OutputTokens: 4}}},
}

func names(events []sseEvent) string {
	var n []string
	for _, e := range events {
		n = append(n, e.name)
	}
	return strings.Join(n, " ")
}

// Seed 003's stream: init, then the run's events by name, ending with its context.
func TestChat003Stream(t *testing.T) {
	fake := &fakeChat{events: musicRun}
	srv := newChatServer(t, fake)
	resp, body := post(t, srv, "/api/chat", `{"messages":[{"role":"user","content":"play Song"}]}`)
	if resp.StatusCode != http.StatusOK || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		t.Fatalf("%d %q", resp.StatusCode, body)
	}
	events := readSSE(t, body)
	want := "init presence delta presence action presence action delta context"
	if got := names(events); got != want {
		t.Fatalf("events %q, want %q", got, want)
	}
	var init map[string]any
	_ = json.Unmarshal([]byte(events[0].data), &init)
	if init["session_id"] != "conv1" || init["request_id"] != "run1" || init["data"] != nil {
		t.Errorf("init %v: no data, the ids of the session and the request", init)
	}
	if events[2].data != `{"v":"On it."}` {
		t.Errorf("delta %s", events[2].data)
	}
	var ctx dialect.Envelope003
	_ = json.Unmarshal([]byte(events[len(events)-1].data), &ctx)
	var c dialect.Context003
	if err := json.Unmarshal([]byte(ctx.Data.(string)), &c); err != nil || c.MessageID != "m1" || c.Usage.TotalTokens != 14 {
		t.Errorf("context %+v (%v)", c, err)
	}
	if len(fake.sent) != 1 || fake.sent[0] != "conv1: play Song" {
		t.Errorf("sent %v", fake.sent)
	}
}

// Seed 003 with stream: false answers once with the whole text and the actions.
func TestChat003Answer(t *testing.T) {
	fake := &fakeChat{events: musicRun}
	srv := newChatServer(t, fake)
	post(t, srv, "/api/chat", `{"messages":[{"role":"user","content":"first"}],"stream":false}`)
	resp, body := post(t, srv, "/api/chat", `{"messages":[{"role":"user","content":"again"}],"stream":false,"session_id":"conv1"}`)
	var a dialect.Answer003
	if err := json.Unmarshal([]byte(body), &a); err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("%d %q", resp.StatusCode, body)
	}
	if a.Status != "done" || a.Message != "On it. Enjoy!" || len(a.Actions) != 2 || a.Context == nil || a.SessionID != "conv1" {
		t.Errorf("answer %+v", a)
	}
	if resp, _ := post(t, srv, "/api/chat", `{"messages":[{"role":"user","content":"x"}],"session_id":"nope"}`); resp.StatusCode != http.StatusNotFound {
		t.Errorf("unknown session: %d", resp.StatusCode)
	}
	if resp, body := post(t, srv, "/api/chat", `{"messages":[{"role":"assistant","content":"x"}]}`); resp.StatusCode != http.StatusBadRequest {
		t.Errorf("no user message: %d %s", resp.StatusCode, body)
	}
}

// The milady dashboard's POST /api/chat {text} is answered with {text, agentName}, its
// messages going to one conversation of their own.
func TestChatMiladyClient(t *testing.T) {
	fake := &fakeChat{events: musicRun}
	srv := newChatServer(t, fake)
	for range 2 {
		resp, body := post(t, srv, "/api/chat", `{"text":"play Song","channelType":"DM"}`)
		var res wire.SendResult
		if err := json.Unmarshal([]byte(body), &res); err != nil || resp.StatusCode != http.StatusOK {
			t.Fatalf("%d %q", resp.StatusCode, body)
		}
		if res.Text != "On it.\n\nNow playing: Song Enjoy!" || res.AgentName != "Wisp" {
			t.Errorf("answer %+v", res)
		}
	}
	if len(fake.convs) != 1 || string(fake.convs[0].Metadata) != `{"client":"milady"}` || len(fake.sent) != 2 || fake.sent[1] != "conv1: play Song" {
		t.Errorf("conversations %+v, sent %v", fake.convs, fake.sent)
	}
	if resp, _ := post(t, srv, "/api/chat", `{"text":"  "}`); resp.StatusCode != http.StatusBadRequest {
		t.Errorf("empty text: %d", resp.StatusCode)
	}
}

// /v1/messages in Anthropic's shapes, its errors included.
func TestV1Messages(t *testing.T) {
	fake := &fakeChat{reply: []string{"Hello ", "there"}}
	srv := newChatServer(t, fake)
	const body = `{"model":"Wisp","max_tokens":64,"messages":[{"role":"user","content":"hi"}]}`
	resp, got := post(t, srv, "/v1/messages", body)
	var m map[string]any
	if err := json.Unmarshal([]byte(got), &m); err != nil || resp.StatusCode != http.StatusOK || m["stop_reason"] != "end_turn" ||
		!strings.Contains(got, `"content":[{"type":"text","text":"Hello there"}]`) {
		t.Fatalf("%d %s", resp.StatusCode, got)
	}
	_, got = post(t, srv, "/v1/messages", strings.Replace(body, `"max_tokens"`, `"stream":true,"max_tokens"`, 1))
	want := "message_start content_block_start content_block_delta content_block_delta content_block_stop message_delta message_stop"
	if n := names(readSSE(t, got)); n != want {
		t.Errorf("stream %q, want %q", n, want)
	}

	for _, c := range []struct {
		name, path, body, token string
		status                  int
		typ                     string
	}{
		{"no max_tokens", "/v1/messages", `{"messages":[{"role":"user","content":"hi"}]}`, testToken, 400, "invalid_request_error"},
		{"not JSON", "/v1/messages", `{`, testToken, 400, "invalid_request_error"},
		{"no token", "/v1/messages", body, "wrong", 401, "authentication_error"},
	} {
		r, _ := http.NewRequest(http.MethodPost, srv.URL+c.path, strings.NewReader(c.body))
		r.Header.Set("Content-Type", "application/json")
		r.Header.Set("X-Api-Key", c.token)
		resp, err := http.DefaultClient.Do(r)
		if err != nil {
			t.Fatal(err)
		}
		var e struct {
			Type  string `json:"type"`
			Error struct{ Type, Message string }
		}
		_ = json.NewDecoder(resp.Body).Decode(&e)
		resp.Body.Close()
		if resp.StatusCode != c.status || e.Type != "error" || e.Error.Type != c.typ || e.Error.Message == "" {
			t.Errorf("%s: %d %+v, want %d %s", c.name, resp.StatusCode, e, c.status, c.typ)
		}
	}

	fake.err = &llm.Error{Kind: llm.KindRateLimit, Status: 429, Provider: "openai"}
	resp, got = post(t, srv, "/v1/messages", body)
	if resp.StatusCode != http.StatusTooManyRequests || !strings.Contains(got, `"type":"rate_limit_error"`) {
		t.Errorf("rate limited: %d %s", resp.StatusCode, got)
	}
	_, got = post(t, srv, "/v1/messages", strings.Replace(body, `"max_tokens"`, `"stream":true,"max_tokens"`, 1))
	if ev := readSSE(t, got); len(ev) == 0 || ev[len(ev)-1].name != "error" || !strings.Contains(ev[len(ev)-1].data, `"type":"api_error"`) {
		t.Errorf("a failed stream ends with an api_error: %v", ev)
	}
}

// /v1/chat/completions answers the models it serves and 404 model_not_found others.
func TestChatCompletionsModels(t *testing.T) {
	srv := newChatServer(t, &fakeChat{reply: []string{"Hi"}})
	for model, status := range map[string]int{"wisp": 200, "Wisp": 200, "qwen3:8b": 200, "ollama/qwen3:8b": 200, "gpt-4o": 404, "": 404} {
		resp, got := post(t, srv, "/v1/chat/completions", `{"model":"`+model+`","messages":[{"role":"user","content":"hi"}]}`)
		if resp.StatusCode != status {
			t.Errorf("model %q: %d %s", model, resp.StatusCode, got)
		}
		if status == 404 && (!strings.Contains(got, `"code":"model_not_found"`) || !strings.Contains(got, `"type":"invalid_request_error"`)) {
			t.Errorf("model %q: %s", model, got)
		}
	}
	_, got := post(t, srv, "/v1/chat/completions", `{"model":"wisp","stream":true,"stream_options":{"include_usage":true},"messages":[{"role":"user","content":"hi"}]}`)
	ev := readSSE(t, got)
	if len(ev) != 5 || ev[4].data != "[DONE]" || !strings.Contains(ev[1].data, `"content":"Hi"`) || !strings.Contains(ev[3].data, `"total_tokens":7`) {
		t.Errorf("stream %v", ev)
	}
	resp, got := post(t, srv, "/v1/chat/completions", `{"model":"wisp","messages":[]}`, "Authorization", "Bearer wrong")
	if resp.StatusCode != http.StatusUnauthorized || !strings.Contains(got, `"code":"invalid_api_key"`) {
		t.Errorf("no token: %d %s", resp.StatusCode, got)
	}
}

// The chunks and the delta dialect reach the client through the run routes.
func TestRunRoutesPickTheDialect(t *testing.T) {
	srv := newChatServer(t, &fakeChat{events: musicRun})
	get := func(path string) (int, []sseEvent) {
		r, _ := http.NewRequest(http.MethodGet, srv.URL+path, nil)
		r.Header.Set("Authorization", "Bearer "+testToken)
		resp, err := http.DefaultClient.Do(r)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		data, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, readSSE(t, string(data))
	}
	if status, ev := get("/api/runs/run1/chunks"); status != 200 || len(ev) != len(musicRun) || !strings.Contains(ev[1].data, `"content":"The user wants music.","isComplete":true`) {
		t.Errorf("chunks: %d %v", status, ev)
	}
	if status, ev := get("/api/runs/run1/stream?dialect=delta&after=3"); status != 200 || len(ev) == 0 || !strings.Contains(ev[len(ev)-1].data, `"type":"done"`) {
		t.Errorf("delta: %d %v", status, ev)
	}
	if status, _ := get("/api/runs/run1/stream?dialect=klingon"); status != http.StatusBadRequest {
		t.Errorf("unknown dialect: %d", status)
	}
	if status, _ := get("/api/runs/run1/stream?after=9"); status != http.StatusNoContent {
		t.Errorf("nothing after the end: %d", status)
	}
}

// A stream in a dialect Wisp does not speak is refused before anything is sent.
func TestUnknownDialectSendsNothing(t *testing.T) {
	fake := &fakeChat{events: musicRun}
	srv := newChatServer(t, fake)
	resp, body := post(t, srv, "/api/conversations/conv1/messages/stream?dialect=html", `{"text":"hi"}`)
	if resp.StatusCode != http.StatusBadRequest || !strings.Contains(body, `"error"`) || len(fake.sent) != 0 {
		t.Fatalf("%d %s, sent %v", resp.StatusCode, body, fake.sent)
	}
}
