package app

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"
	"github.com/wispapp/wisp/runtime"
	"github.com/wispapp/wisp/runtime/llm/llmtest"
)

// chatApp is a running Wisp answered by the fake LLM.
type chatApp struct {
	*App
	t    *testing.T
	fake *llmtest.Server
	// token, when set, is sent with every request (a Wisp with shell access on).
	token string
}

func startChat(t *testing.T, dir string, actions ...runtime.Action) *chatApp {
	t.Helper()
	fake := llmtest.New()
	t.Cleanup(fake.Close)
	return startChatWith(t, dir, fake, actions...)
}

func startChatWith(t *testing.T, dir string, fake *llmtest.Server, actions ...runtime.Action) *chatApp {
	t.Helper()
	opts := testOptions(t, dir, map[string]string{
		"WISP_PROVIDER": "openai", "WISP_BASE_URL": fake.OpenAIURL(), "WISP_MODEL": "fake", "OPENAI_API_KEY": "k",
	})
	opts.Actions = actions
	opts.NoTitles = true
	a := startApp(t, opts)
	c := &chatApp{App: a, t: t, fake: fake}
	t.Cleanup(func() { a.Stop() })
	return c
}

// call does a JSON request and decodes the answer into out (if not nil).
func (c *chatApp) call(method, path string, body any, out any) int {
	c.t.Helper()
	var rd io.Reader
	if body != nil {
		data, _ := json.Marshal(body)
		rd = bytes.NewReader(data)
	}
	req, _ := http.NewRequest(method, c.URL()+path, rd)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	return c.roundTrip(req, out)
}

// roundTrip sends req with the token and decodes the JSON answer into out (if not nil).
func (c *chatApp) roundTrip(req *http.Request, out any) int {
	c.t.Helper()
	c.authorize(req)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		c.t.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	if out != nil {
		if err := json.Unmarshal(data, out); err != nil {
			c.t.Fatalf("%s %s: %d %s: %v", req.Method, req.URL.Path, resp.StatusCode, data, err)
		}
	}
	return resp.StatusCode
}

func (c *chatApp) authorize(req *http.Request) {
	if c.token != "" {
		req.Header.Set("Authorization", "Bearer "+c.token)
	}
}

func (c *chatApp) newConversation() string {
	c.t.Helper()
	var out struct{ Conversation struct{ ID string } }
	if code := c.call("POST", "/api/conversations", map[string]any{}, &out); code != 200 {
		c.t.Fatalf("create conversation: %d", code)
	}
	return out.Conversation.ID
}

type message struct {
	ID, Role, Text, Status, Error, RunID string
	ActionCallbackHistory                []string
}

func (c *chatApp) messages(conv string) []message {
	c.t.Helper()
	var out struct{ Messages []message }
	if code := c.call("GET", "/api/conversations/"+conv+"/messages", nil, &out); code != 200 {
		c.t.Fatalf("messages: %d", code)
	}
	return out.Messages
}

// frame is one SSE frame as a client sees it.
type frame struct {
	ID   int64
	Raw  string
	Data map[string]any
}

func (f frame) typ() string         { s, _ := f.Data["type"].(string); return s }
func (f frame) str(k string) string { s, _ := f.Data[k].(string); return s }

// sseStream reads SSE frames from a response.
type sseStream struct {
	resp     *http.Response
	rd       *bufio.Reader
	comments int
}

// stream posts a chat message and returns the open SSE stream.
func (c *chatApp) stream(conv, text string) *sseStream {
	c.t.Helper()
	return c.streamQuery(conv, text, "")
}

// streamQuery is stream with a query string ("dialect=delta").
func (c *chatApp) streamQuery(conv, text, query string) *sseStream {
	c.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	c.t.Cleanup(cancel)
	body, _ := json.Marshal(map[string]string{"text": text})
	u := c.URL() + "/api/conversations/" + conv + "/messages/stream"
	if query != "" {
		u += "?" + query
	}
	req, _ := http.NewRequestWithContext(ctx, "POST", u, bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	c.authorize(req)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		c.t.Fatal(err)
	}
	c.t.Cleanup(func() { resp.Body.Close() })
	return &sseStream{resp: resp, rd: bufio.NewReader(resp.Body)}
}

// next returns the next data frame (counting comments on the way), or false at the end.
func (s *sseStream) next(t *testing.T) (frame, bool) {
	t.Helper()
	var f frame
	for {
		line, err := s.rd.ReadString('\n')
		if err != nil {
			return f, false
		}
		line = strings.TrimRight(line, "\n")
		switch {
		case line == "":
			if f.Raw != "" {
				return f, true
			}
		case strings.HasPrefix(line, ":"):
			s.comments++
		case strings.HasPrefix(line, "id: "):
			f.ID, _ = strconv.ParseInt(line[4:], 10, 64)
		case strings.HasPrefix(line, "data: "):
			f.Raw = line[6:]
			if err := json.Unmarshal([]byte(f.Raw), &f.Data); err != nil {
				t.Fatalf("frame is not JSON: %q", f.Raw)
			}
		default:
			t.Fatalf("unexpected SSE line %q", line)
		}
	}
}

func (s *sseStream) all(t *testing.T) []frame {
	t.Helper()
	var out []frame
	for {
		f, ok := s.next(t)
		if !ok {
			return out
		}
		out = append(out, f)
	}
}

// waitRun polls a run until it is no longer active.
func (c *chatApp) waitRun(id string) string {
	c.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		var out struct{ Run struct{ Status string } }
		c.call("GET", "/api/runs/"+id, nil, &out)
		if out.Run.Status != "active" && out.Run.Status != "" {
			return out.Run.Status
		}
		time.Sleep(10 * time.Millisecond)
	}
	c.t.Fatalf("run %s still active", id)
	return ""
}

// wsClient is a /ws connection collecting frames.
type wsClient struct {
	conn   *websocket.Conn
	frames chan map[string]any
}

func (c *chatApp) dialWS() *wsClient { return dialSocket(c.t, c.App, "") }

// dialSocket connects to /ws with an optional query (e.g. "clientId=tab-1"), with the
// App's own token if it has one, and waits until the client is active: broadcasts
// reach it from then on.
func dialSocket(t *testing.T, a *App, query string) *wsClient {
	t.Helper()
	u := strings.Replace(a.URL(), "http", "ws", 1) + "/ws"
	if query != "" {
		u += "?" + query
	}
	var h http.Header
	if own := ownTokenOf(a); own != "" {
		h = http.Header{"Authorization": {"Bearer " + own}}
	}
	return dialSocketHeader(t, u, h)
}

// dialSocketHeader is dialSocket with request headers.
func dialSocketHeader(t *testing.T, u string, h http.Header) *wsClient {
	t.Helper()
	conn, _, err := websocket.DefaultDialer.Dial(u, h)
	if err != nil {
		t.Fatal(err)
	}
	w := newWSClient(conn)
	t.Cleanup(func() { conn.Close() })
	w.waitFor(t, ofType("status"))
	return w
}

// newWSClient reads every frame of conn into a channel.
func newWSClient(conn *websocket.Conn) *wsClient {
	w := &wsClient{conn: conn, frames: make(chan map[string]any, 4096)}
	go func() {
		defer close(w.frames)
		for {
			var m map[string]any
			if err := conn.ReadJSON(&m); err != nil {
				return
			}
			w.frames <- m
		}
	}()
	return w
}

// waitFor returns the first frame matching, failing after a few seconds.
func (w *wsClient) waitFor(t *testing.T, match func(map[string]any) bool) map[string]any {
	t.Helper()
	timeout := time.After(15 * time.Second) // a deadline, not a speed claim
	for {
		select {
		case m, ok := <-w.frames:
			if !ok {
				t.Fatal("socket closed")
			}
			if match(m) {
				return m
			}
		case <-timeout:
			t.Fatal("no matching /ws frame")
		}
	}
}

func ofType(typ string) func(map[string]any) bool {
	return func(m map[string]any) bool { return m["type"] == typ }
}
