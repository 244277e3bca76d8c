package llmtest

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/wispapp/wisp/runtime/llm"
)

var update = flag.Bool("update", false, "rewrite the golden files")

func newTestServer(t *testing.T) *Server {
	t.Helper()
	s := New()
	t.Cleanup(s.Close)
	return s
}

// post sends a JSON body and returns the response, read whole.
func post(t *testing.T, url, body string, header ...string) (int, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	tr := &http.Transport{}
	defer tr.CloseIdleConnections()
	res, err := (&http.Client{Transport: tr}).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	data, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatalf("read body: %v", err)
	}
	return res.StatusCode, string(data)
}

func get(t *testing.T, url string, header ...string) string {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, url, nil)
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	tr := &http.Transport{}
	defer tr.CloseIdleConnections()
	res, err := (&http.Client{Transport: tr}).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	data, _ := io.ReadAll(res.Body)
	return string(data)
}

// golden compares got with testdata/name, or rewrites it with -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("%s differs:\n got:\n%s\nwant:\n%s", name, got, want)
	}
}

var scriptedTurn = Turn{
	Thinking:  []string{"Let me", " check."},
	Text:      []string{"Checking", " now."},
	ToolCalls: []llm.ToolCall{Call("", "read_file", map[string]string{"path": "a.txt"})},
	Usage:     llm.Usage{InputTokens: 10, OutputTokens: 7},
}

const openAIBody = `{"model":"fake","stream":%s,"stream_options":{"include_usage":true},
	"messages":[{"role":"system","content":"sys"},{"role":"user","content":[{"type":"text","text":"hi"}]}],
	"tools":[{"type":"function","function":{"name":"read_file","parameters":{"type":"object"}}}]}`

const anthropicBody = `{"model":"fake","max_tokens":100,"stream":%s,"system":[{"type":"text","text":"sys"}],
	"thinking":{"type":"enabled","budget_tokens":1024},
	"messages":[{"role":"user","content":"hi"}],"tools":[{"name":"read_file","input_schema":{"type":"object"}}]}`

func TestWireGolden(t *testing.T) {
	tests := []struct {
		name, path, body string
	}{
		{"openai_stream.golden", "/v1/chat/completions", strings.Replace(openAIBody, "%s", "true", 1)},
		{"openai.golden", "/v1/chat/completions", strings.Replace(openAIBody, "%s", "false", 1)},
		{"anthropic_stream.golden", "/v1/messages", strings.Replace(anthropicBody, "%s", "true", 1)},
		{"anthropic.golden", "/v1/messages", strings.Replace(anthropicBody, "%s", "false", 1)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newTestServer(t)
			s.Script(scriptedTurn)
			status, body := post(t, s.URL+tt.path, tt.body)
			if status != http.StatusOK {
				t.Fatalf("status %d: %s", status, body)
			}
			golden(t, tt.name, body)
		})
	}
}

func TestReceived(t *testing.T) {
	s := newTestServer(t)
	post(t, s.OpenAIURL()+"/chat/completions", strings.Replace(openAIBody, "%s", "true", 1), "Authorization", "Bearer k")
	post(t, s.AnthropicURL()+"/v1/messages", strings.Replace(anthropicBody, "%s", "false", 1))
	reqs := s.Requests()
	if len(reqs) != 2 {
		t.Fatalf("got %d requests", len(reqs))
	}
	o, a := reqs[0], reqs[1]
	if o.Protocol != ProtocolOpenAI || o.Model != "fake" || o.System != "sys" || o.LastUserText() != "hi" || !o.Stream ||
		len(o.Tools) != 1 || o.Tools[0] != "read_file" || o.Header.Get("Authorization") != "Bearer k" {
		t.Errorf("openai request = %+v", o)
	}
	if a.Protocol != ProtocolAnthropic || a.System != "sys" || a.LastUserText() != "hi" || a.Stream ||
		a.MaxTokens != 100 || a.ThinkingBudget != 1024 || len(a.Tools) != 1 {
		t.Errorf("anthropic request = %+v", a)
	}
}

func TestTurnChoice(t *testing.T) {
	s := newTestServer(t)
	s.Handle(func(r Received) bool { return strings.Contains(r.System, "title") },
		func(Received) Turn { return TextTurn("A title", 0) })
	s.Script(TextTurn("first", 0), TextTurn("second", 0))
	s.Fallback(func(r Received) Turn { return TextTurn("fallback "+r.LastUserText(), 0) })

	reply := func(system string) string {
		body := `{"model":"m","messages":[{"role":"system","content":"` + system + `"},{"role":"user","content":"u"}]}`
		_, out := post(t, s.OpenAIURL()+"/chat/completions", body)
		var res struct {
			Choices []struct {
				Message struct {
					Content string `json:"content"`
				} `json:"message"`
			} `json:"choices"`
		}
		if err := json.Unmarshal([]byte(out), &res); err != nil || len(res.Choices) != 1 {
			t.Fatalf("response %s: %v", out, err)
		}
		return res.Choices[0].Message.Content
	}
	got := []string{reply("chat"), reply("make a title"), reply("chat"), reply("chat")}
	want := []string{"first", "A title", "second", "fallback u"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("replies = %q, want %q", got, want)
	}
	if s.Pending() != 0 {
		t.Errorf("Pending = %d", s.Pending())
	}
}

func TestHTTPErrorShapes(t *testing.T) {
	s := newTestServer(t)
	s.Script(ErrorTurn(429, "slow down"), ErrorTurn(529, ""))
	status, body := post(t, s.OpenAIURL()+"/chat/completions", `{"model":"m","messages":[]}`)
	if status != 429 || body != `{"error":{"code":null,"message":"slow down","param":null,"type":"rate_limit_error"}}`+"\n" {
		t.Errorf("openai error = %d %s", status, body)
	}
	status, body = post(t, s.URL+"/v1/messages", `{"model":"m","max_tokens":1,"messages":[]}`)
	if status != 529 || body != `{"error":{"message":"Overloaded","type":"overloaded_error"},"request_id":"req_llmtest","type":"error"}`+"\n" {
		t.Errorf("anthropic error = %d %s", status, body)
	}
	status, _ = post(t, s.URL+"/v1/messages", `not json`)
	if status != http.StatusBadRequest {
		t.Errorf("bad JSON status = %d", status)
	}
}

func TestStreamTerminators(t *testing.T) {
	tests := []struct {
		name string
		turn Turn
		path string
		body string
		want string // the last line with data
		cut  bool
	}{
		{"openai done", TextTurn("a b", 0), "/v1/chat/completions", `{"stream":true,"messages":[]}`, "data: [DONE]", false},
		{"openai error event", Turn{Text: []string{"a"}, ErrorEvent: "boom"}, "/v1/chat/completions", `{"stream":true}`, `data: {"error":{"code":null,"message":"boom","type":"server_error"}}`, false},
		{"openai cut", Turn{Text: []string{"a", "b", "c"}, CutAfter: 1}, "/v1/chat/completions", `{"stream":true}`, "", true},
		{"anthropic stop", TextTurn("a b", 0), "/v1/messages", `{"stream":true}`, `data: {"type":"message_stop"}`, false},
		{"anthropic error event", Turn{ErrorEvent: "busy"}, "/v1/messages", `{"stream":true}`, `data: {"error":{"message":"busy","type":"overloaded_error"},"type":"error"}`, false},
		{"anthropic cut", Turn{Text: []string{"a", "b"}, CutAfter: 1}, "/v1/messages", `{"stream":true}`, "", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newTestServer(t)
			s.Script(tt.turn)
			tr := &http.Transport{}
			defer tr.CloseIdleConnections()
			res, err := (&http.Client{Transport: tr}).Post(s.URL+tt.path, "application/json", strings.NewReader(tt.body))
			if err != nil {
				t.Fatal(err)
			}
			defer res.Body.Close()
			var last string
			sc := bufio.NewScanner(res.Body)
			for sc.Scan() {
				if strings.HasPrefix(sc.Text(), "data:") {
					last = sc.Text()
				}
			}
			if tt.cut {
				if sc.Err() == nil {
					t.Errorf("stream ended cleanly after %q, want a dropped connection", last)
				}
				return
			}
			if sc.Err() != nil || last != tt.want {
				t.Errorf("last data line = %q (%v), want %q", last, sc.Err(), tt.want)
			}
		})
	}
}

func TestDelayBetweenChunks(t *testing.T) {
	s := newTestServer(t)
	s.Script(Turn{Text: []string{"a", "b", "c"}, Delay: 5 * time.Millisecond})
	start := time.Now()
	post(t, s.OpenAIURL()+"/chat/completions", `{"stream":true}`)
	if elapsed := time.Since(start); elapsed < 10*time.Millisecond {
		t.Errorf("three chunks 5ms apart took %v", elapsed)
	}
}

func TestCloseEndsHangingRequests(t *testing.T) {
	s := New()
	s.Script(Turn{Hang: true})
	tr := &http.Transport{}
	defer tr.CloseIdleConnections()
	res, err := (&http.Client{Transport: tr}).Post(s.URL+"/v1/messages", "application/json", strings.NewReader(`{"stream":true}`))
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	done := make(chan struct{})
	go func() {
		defer close(done)
		s.Close()
	}()
	select {
	case <-done:
	case <-time.After(2 * time.Second):
		t.Fatal("Close did not return while a request hung")
	}
	s.Close() // a second Close is harmless
}

func TestHangUntilClientLeaves(t *testing.T) {
	s := newTestServer(t)
	s.Script(Turn{Hang: true})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Millisecond)
	defer cancel()
	tr := &http.Transport{}
	defer tr.CloseIdleConnections()
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, s.OpenAIURL()+"/chat/completions", strings.NewReader(`{"stream":true}`))
	res, err := (&http.Client{Transport: tr}).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if _, err := io.ReadAll(res.Body); err == nil {
		t.Error("read a hanging body to its end")
	}
}

func TestModelLists(t *testing.T) {
	s := newTestServer(t)
	s.SetModels("alpha", "beta")
	if got := get(t, s.OpenAIURL()+"/models"); !strings.Contains(got, `"object":"list"`) || !strings.Contains(got, `"id":"beta"`) {
		t.Errorf("openai models = %s", got)
	}
	if got := get(t, s.URL+"/v1/models", "anthropic-version", "2023-06-01"); !strings.Contains(got, `"type":"model"`) || !strings.Contains(got, `"last_id":"beta"`) {
		t.Errorf("anthropic models = %s", got)
	}
	var tags struct {
		Models []struct {
			Name string `json:"name"`
		} `json:"models"`
	}
	if err := json.Unmarshal([]byte(get(t, s.URL+"/api/tags")), &tags); err != nil || len(tags.Models) != 2 || tags.Models[0].Name != "alpha" {
		t.Errorf("tags = %+v, %v", tags, err)
	}
}

// SetCallIDs: tool calls sent with no id, or all with one id, in both protocols and
// both ways of answering.
func TestCallIDs(t *testing.T) {
	for _, tc := range []struct {
		ids  CallIDs
		want []string // what the bodies must hold
		not  []string // and must not
	}{
		{CallIDsAsScripted, []string{`"call_llmtest_`, `"toolu_llmtest_`}, nil},
		{CallIDsOmitted, []string{`"id":""`}, []string{`call_llmtest_`, `toolu_llmtest_`, RepeatedCallID}},
		{CallIDsRepeated, []string{`"` + RepeatedCallID + `"`}, []string{`call_llmtest_`, `toolu_llmtest_`}},
	} {
		s := newTestServer(t)
		s.SetCallIDs(tc.ids)
		var all strings.Builder
		for _, body := range []struct{ path, body string }{
			{"/v1/chat/completions", strings.Replace(openAIBody, "%s", "true", 1)},
			{"/v1/chat/completions", strings.Replace(openAIBody, "%s", "false", 1)},
			{"/v1/messages", strings.Replace(anthropicBody, "%s", "true", 1)},
			{"/v1/messages", strings.Replace(anthropicBody, "%s", "false", 1)},
		} {
			two := scriptedTurn
			two.ToolCalls = append(append([]llm.ToolCall(nil), scriptedTurn.ToolCalls...), Call("mine", "read_file", map[string]string{}))
			s.Script(two)
			status, got := post(t, s.URL+body.path, body.body)
			if status != http.StatusOK {
				t.Fatalf("%s: status %d: %s", body.path, status, got)
			}
			all.WriteString(got)
		}
		got := all.String()
		for _, w := range tc.want {
			if !strings.Contains(got, w) {
				t.Errorf("ids %d: no %s in the answers:\n%s", tc.ids, w, got)
			}
		}
		for _, n := range tc.not {
			if strings.Contains(got, n) || strings.Contains(got, `"mine"`) {
				t.Errorf("ids %d: %s (or a scripted id) in the answers", tc.ids, n)
			}
		}
	}
}
