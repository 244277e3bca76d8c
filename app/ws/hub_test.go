package ws

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gorilla/websocket"
	"github.com/wispapp/wisp/app/wire"
	"github.com/wispapp/wisp/internal/fault"
	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

const testToken = "s3cret"

type harness struct {
	hub *Hub
	srv *httptest.Server
	url string // ws://.../ws
}

// testGate accepts the Origin http://127.0.0.1 (or none) and, when token is set,
// only that token.
type testGate struct{ token string }

func (g testGate) Required() bool             { return g.token != "" }
func (g testGate) Authorized(tok string) bool { return g.token == "" || tok == g.token }
func (g testGate) OriginAllowed(r *http.Request) bool {
	o := r.Header.Get("Origin")
	return o == "" || o == "http://127.0.0.1"
}

func withToken(o *Options) { o.Gate = testGate{token: testToken} }

// testStatus stands in for the API's mapping of faults to status codes.
var testStatus = map[fault.Kind]int{fault.Invalid: 400, fault.Unauthenticated: 401, fault.Unavailable: 503, fault.Internal: 500}

func newHarness(t *testing.T, mods ...func(*Options)) *harness {
	t.Helper()
	return newHarnessHub(t, func(*Hub) {}, mods...)
}

// newHarnessHub is newHarness with register run on the hub before it starts.
func newHarnessHub(t *testing.T, register func(*Hub), mods ...func(*Options)) *harness {
	t.Helper()
	opts := Options{
		Gate: testGate{},
		Status: func(periodic bool) wire.StatusFrame {
			st := wire.Status{State: "running"}
			if periodic {
				st.RestartState = wire.NewRestartState(nil)
			}
			return wire.NewStatus(st)
		},
	}
	for _, mod := range mods {
		mod(&opts)
	}
	h := New(opts)
	register(h)
	if err := h.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/ws", func(w http.ResponseWriter, r *http.Request) {
		if err := h.Handle(w, r); err != nil {
			http.Error(w, err.Error(), testStatus[fault.KindOf(err)])
		}
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(func() {
		h.Stop()
		srv.Close()
	})
	return &harness{hub: h, srv: srv, url: "ws" + strings.TrimPrefix(srv.URL, "http") + "/ws"}
}

func (h *harness) dial(t *testing.T, query string, hdr http.Header) (*websocket.Conn, *http.Response, error) {
	t.Helper()
	u := h.url
	if query != "" {
		u += "?" + query
	}
	c, resp, err := websocket.DefaultDialer.Dial(u, hdr)
	if c != nil {
		t.Cleanup(func() { c.Close() })
	}
	return c, resp, err
}

func (h *harness) mustDial(t *testing.T, query string, hdr http.Header) *websocket.Conn {
	t.Helper()
	c, resp, err := h.dial(t, query, hdr)
	if err != nil {
		status := 0
		if resp != nil {
			status = resp.StatusCode
		}
		t.Fatalf("dial %s: %v (status %d)", query, err, status)
	}
	return c
}

func bearer(tok string) http.Header { return http.Header{"Authorization": {"Bearer " + tok}} }

func read(t *testing.T, c *websocket.Conn) map[string]any {
	t.Helper()
	c.SetReadDeadline(time.Now().Add(5 * time.Second))
	var m map[string]any
	if err := c.ReadJSON(&m); err != nil {
		t.Fatalf("read: %v", err)
	}
	return m
}

func expectType(t *testing.T, c *websocket.Conn, typ string) map[string]any {
	t.Helper()
	m := read(t, c)
	if m["type"] != typ {
		t.Fatalf("got %v, want type %q", m, typ)
	}
	return m
}

func expectClose(t *testing.T, c *websocket.Conn, code int) {
	t.Helper()
	c.SetReadDeadline(time.Now().Add(5 * time.Second))
	for {
		_, _, err := c.ReadMessage()
		if err == nil {
			continue
		}
		var ce *websocket.CloseError
		if !errors.As(err, &ce) || ce.Code != code {
			t.Fatalf("err = %v, want close %d", err, code)
		}
		return
	}
}

func publish(t *testing.T, h *Hub, n int) {
	t.Helper()
	for i := 1; i <= n; i++ {
		if _, err := h.Publish(wire.NewEnvelope(wire.TypeAgentEvent, "system", json.RawMessage(fmt.Sprintf(`{"n":%d}`, i)))); err != nil {
			t.Fatal(err)
		}
	}
}

// readEnvelopes reads n envelopes after the status frame and returns their event ids.
func readEnvelopes(t *testing.T, c *websocket.Conn, n int) []string {
	t.Helper()
	ids := make([]string, 0, n)
	for len(ids) < n {
		m := read(t, c)
		if m["type"] == wire.TypeAgentEvent {
			ids = append(ids, m["eventId"].(string))
		}
	}
	return ids
}

// expectQuiet checks that nothing is queued for the client: frames arrive in order,
// so the answer to a ping sent now must be the next frame (a periodic status aside).
func expectQuiet(t *testing.T, c *websocket.Conn) {
	t.Helper()
	c.WriteJSON(map[string]string{"type": "ping"})
	for {
		switch m := read(t, c); m["type"] {
		case "pong":
			return
		case "status":
		default:
			t.Fatalf("unexpected frame %v", m)
		}
	}
}

func TestAuthPaths(t *testing.T) {
	cases := []struct {
		name    string
		mods    []func(*Options)
		query   string
		header  http.Header
		first   any // frame sent after connecting, if any
		status  int // expected HTTP refusal, 0 if the upgrade succeeds
		close   int // expected close code, 0 if the connection becomes active
		authOK  bool
		noFrame bool
	}{
		{name: "no token configured", noFrame: true},
		{name: "bearer header", mods: []func(*Options){withToken}, header: bearer(testToken), noFrame: true},
		{name: "wrong bearer", mods: []func(*Options){withToken}, header: bearer("nope"), status: 401},
		{name: "auth frame", mods: []func(*Options){withToken}, first: map[string]string{"type": "auth", "token": testToken}, authOK: true},
		{name: "wrong token frame", mods: []func(*Options){withToken}, first: map[string]string{"type": "auth", "token": "nope"}, close: 1008},
		{name: "other first frame", mods: []func(*Options){withToken}, first: map[string]string{"type": "ping"}, close: 1008},
		{name: "garbage first frame", mods: []func(*Options){withToken}, first: "not json", close: 1008},
		{name: "query token refused", mods: []func(*Options){withToken}, query: "token=" + testToken, status: 401},
		{name: "query token refused without auth too", query: "token=x", status: 401},
		{name: "query token allowed", mods: []func(*Options){withToken, func(o *Options) { o.AllowQueryToken = true }}, query: "token=" + testToken, noFrame: true},
		{name: "wrong query token allowed mode", mods: []func(*Options){withToken, func(o *Options) { o.AllowQueryToken = true }}, query: "token=bad", status: 401},
		{name: "bad clientId", query: "clientId=a/b", status: 400},
		{name: "bad lastEventId", query: "lastEventId=42", status: 400},
		{name: "foreign origin", header: http.Header{"Origin": {"http://evil.example"}}, status: 403},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, tc.mods...)
			c, resp, err := h.dial(t, tc.query, tc.header)
			if tc.status != 0 {
				if err == nil || resp == nil || resp.StatusCode != tc.status {
					t.Fatalf("err = %v, resp = %v; want HTTP %d", err, resp, tc.status)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			switch f := tc.first.(type) {
			case nil:
			case string:
				c.WriteMessage(websocket.TextMessage, []byte(f))
			default:
				c.WriteJSON(f)
			}
			if tc.close != 0 {
				expectClose(t, c, tc.close)
				return
			}
			if tc.authOK {
				expectType(t, c, "auth-ok")
			}
			st := expectType(t, c, "status")
			if _, ok := st["pendingRestart"]; ok {
				t.Fatalf("initial status carries pendingRestart: %v", st)
			}
			c.WriteJSON(map[string]string{"type": "ping"})
			expectType(t, c, "pong")
		})
	}
}

func TestUnauthenticatedClientTimesOut(t *testing.T) {
	h := newHarness(t, withToken, func(o *Options) { o.AuthTimeout = 50 * time.Millisecond })
	c := h.mustDial(t, "", nil)
	expectClose(t, c, 1008)
}

func TestPendingClientGetsNoBroadcasts(t *testing.T) {
	h := newHarness(t, withToken)
	c := h.mustDial(t, "", nil)
	publish(t, h.hub, 3)
	h.hub.Broadcast(wire.NewEmote("wave", "/emotes/wave.glb", 2.5, false))
	c.WriteJSON(map[string]string{"type": "auth", "token": testToken})
	expectType(t, c, "auth-ok")
	expectType(t, c, "status")
	if ids := readEnvelopes(t, c, 3); ids[0] != "evt-1" || ids[2] != "evt-3" {
		t.Fatalf("replay = %v", ids)
	}
	expectQuiet(t, c) // the emote broadcast before auth is not delivered
}

func TestReplay(t *testing.T) {
	h := newHarness(t)
	publish(t, h.hub, 200)

	c := h.mustDial(t, "", nil)
	expectType(t, c, "status")
	ids := readEnvelopes(t, c, 120)
	for i, id := range ids {
		if want := wire.FormatEventID(int64(81 + i)); id != want {
			t.Fatalf("replay[%d] = %s, want %s", i, id, want)
		}
	}
	expectQuiet(t, c)

	c2 := h.mustDial(t, "lastEventId=evt-190", nil)
	expectType(t, c2, "status")
	if ids := readEnvelopes(t, c2, 10); ids[0] != "evt-191" || ids[9] != "evt-200" {
		t.Fatalf("replay after evt-190 = %v", ids)
	}
	expectQuiet(t, c2)

	c3 := h.mustDial(t, "lastEventId=evt-200", nil)
	expectType(t, c3, "status")
	expectQuiet(t, c3)

	// An id from beyond this server's history (a wiped buffer) is told so, then gets
	// the normal replay.
	c4 := h.mustDial(t, "lastEventId=evt-999", nil)
	expectType(t, c4, "status")
	expectTruncated(t, c4, "evt-999", "evt-1")
	if ids := readEnvelopes(t, c4, 120); ids[0] != "evt-81" {
		t.Fatalf("replay after a future id starts at %s", ids[0])
	}
}

// expectTruncated reads a replay-truncated frame naming the client's id and the
// oldest the window holds.
func expectTruncated(t *testing.T, c *websocket.Conn, last, oldest string) {
	t.Helper()
	c.SetReadDeadline(time.Now().Add(10 * time.Second))
	var m map[string]any
	if err := c.ReadJSON(&m); err != nil {
		t.Fatalf("read: %v", err)
	}
	if m["type"] != wire.TypeReplayTruncated || m["lastEventId"] != last || m["oldestEventId"] != oldest {
		t.Fatalf("got %v, want replay-truncated after %s, oldest %s", m, last, oldest)
	}
}

func TestBufferCapsAt1500(t *testing.T) {
	h := newHarness(t)
	publish(t, h.hub, 1600)
	c := h.mustDial(t, "lastEventId=evt-100", nil)
	expectType(t, c, "status")
	ids := readEnvelopes(t, c, 1500)
	if ids[0] != "evt-101" || ids[1499] != "evt-1600" {
		t.Fatalf("buffer holds %s..%s, want evt-101..evt-1600", ids[0], ids[1499])
	}
	expectQuiet(t, c)

	// A client that saw only up to evt-99 missed evt-100, which the window no longer
	// holds: it is told, then gets the usual replay.
	for _, last := range []string{"evt-99", "evt-0"} {
		c := h.mustDial(t, "lastEventId="+last, nil)
		expectType(t, c, "status")
		expectTruncated(t, c, last, "evt-101")
		if ids := readEnvelopes(t, c, 120); ids[0] != "evt-1481" || ids[119] != "evt-1600" {
			t.Fatalf("after %s: replay %s..%s", last, ids[0], ids[119])
		}
		expectQuiet(t, c)
	}
}

func TestEnvelopeShape(t *testing.T) {
	h := newHarness(t)
	c := h.mustDial(t, "", nil)
	expectType(t, c, "status")
	env := wire.NewEnvelope(wire.TypeHeartbeatEvent, "", json.RawMessage(`{"status":"thinking"}`))
	seq := int64(7)
	env.RunID, env.Seq = "r1", &seq
	if _, err := h.hub.Publish(env); err != nil {
		t.Fatal(err)
	}
	m := expectType(t, c, wire.TypeHeartbeatEvent)
	if m["version"] != 1.0 || m["eventId"] != "evt-1" || m["runId"] != "r1" || m["seq"] != 7.0 {
		t.Fatalf("envelope = %v", m)
	}
	if ts, _ := m["ts"].(float64); ts < float64(time.Now().Add(-time.Minute).UnixMilli()) {
		t.Fatalf("ts = %v", m["ts"])
	}
	if p := m["payload"].(map[string]any); p["status"] != "thinking" {
		t.Fatalf("payload = %v", p)
	}
	if _, err := h.hub.Publish(wire.Envelope{Head: wire.Head{Type: "status"}}); err == nil {
		t.Fatal("an unbuffered type was accepted as an envelope")
	}
}

func TestMalformedFramesGetErrors(t *testing.T) {
	h := newHarness(t)
	c := h.mustDial(t, "", nil)
	expectType(t, c, "status")
	for _, frame := range []string{"{nope", `"string"`, `{"type":"dance"}`} {
		c.WriteMessage(websocket.TextMessage, []byte(frame))
		if m := expectType(t, c, "error"); m["message"] == "" {
			t.Fatalf("error frame without message for %q", frame)
		}
	}
	c.WriteMessage(websocket.BinaryMessage, []byte{1, 2})
	expectType(t, c, "error")
	c.WriteJSON(map[string]string{"type": "ping"})
	expectType(t, c, "pong")
}

func TestOversizedFrameClosesOnlyThatClient(t *testing.T) {
	h := newHarness(t, func(o *Options) { o.MaxFrameSize = 1024 })
	c := h.mustDial(t, "", nil)
	expectType(t, c, "status")
	c.WriteMessage(websocket.TextMessage, []byte(`{"type":"ping","x":"`+strings.Repeat("a", 2048)+`"}`))
	expectClose(t, c, 1009)
}

func TestActiveConversation(t *testing.T) {
	h := newHarness(t)
	a := h.mustDial(t, "clientId=tab-a", nil)
	expectType(t, a, "status")
	b := h.mustDial(t, "clientId=tab-b", nil)
	expectType(t, b, "status")
	a.WriteJSON(map[string]any{"type": "active-conversation", "conversationId": "conv-1"})
	waitFor(t, func() bool { id, ok := h.hub.ActiveConversation(); return ok && id == "conv-1" })
	b.WriteJSON(map[string]any{"type": "active-conversation", "conversationId": "conv-2"})
	waitFor(t, func() bool { id, _ := h.hub.ActiveConversation(); return id == "conv-2" })
	b.WriteJSON(map[string]any{"type": "active-conversation", "conversationId": 42})
	waitFor(t, func() bool { id, _ := h.hub.ActiveConversation(); return id == "conv-1" })
	a.WriteJSON(map[string]any{"type": "active-conversation", "conversationId": nil})
	waitFor(t, func() bool { _, ok := h.hub.ActiveConversation(); return !ok })

	n := h.hub.Send(wire.NewTerminalOutput("run-1", "tab-b", 1, wire.TerminalStdout), func(c Client) bool { return c.ClientID == "tab-b" })
	if n != 1 {
		t.Fatalf("scoped send reached %d clients", n)
	}
	expectType(t, b, "terminal-output")
	expectQuiet(t, a)
}

func TestPeriodicStatus(t *testing.T) {
	h := newHarness(t, func(o *Options) { o.StatusEvery = 30 * time.Millisecond })
	c := h.mustDial(t, "", nil)
	expectType(t, c, "status")
	m := expectType(t, c, "status")
	if _, ok := m["pendingRestartReasons"]; !ok {
		t.Fatalf("periodic status lacks pendingRestartReasons: %v", m)
	}
}

// A client that stops reading is closed with 1013; another keeps receiving everything.
func TestStalledClientIsDropped(t *testing.T) {
	var logs lockedBuffer
	h := newHarness(t, func(o *Options) {
		o.QueueSize = 256
		o.Logger = slog.New(slog.NewTextHandler(&logs, nil))
	})
	stalled := h.mustDial(t, "clientId=stalled", nil)
	healthy := h.mustDial(t, "clientId=healthy", nil)
	expectType(t, healthy, "status")

	// 3000 × 16 KiB is far more than the stalled client's queue plus the kernel's
	// socket buffers, so its queue must overflow.
	const total = 3000
	payload := strings.Repeat("x", 16<<10)
	var received atomic.Int64
	var got []string
	done := make(chan struct{})
	go func() {
		defer close(done)
		healthy.SetReadDeadline(time.Now().Add(60 * time.Second))
		for len(got) < total {
			var m map[string]any
			if err := healthy.ReadJSON(&m); err != nil {
				return
			}
			if m["type"] == wire.TypeAgentEvent {
				got = append(got, m["eventId"].(string))
				received.Add(1)
			}
		}
	}()
	for i := 0; i < total; i++ {
		// Publish at the pace the healthy reader sustains (at most 128 ahead of it).
		for int64(i)-received.Load() > 128 {
			select {
			case <-done:
				t.Fatalf("healthy client stopped after %d envelopes", received.Load())
			case <-time.After(100 * time.Microsecond):
			}
		}
		if _, err := h.hub.Publish(wire.NewEnvelope(wire.TypeAgentEvent, "", json.RawMessage(`{"p":"`+payload+`"}`))); err != nil {
			t.Fatal(err)
		}
	}
	<-done
	if len(got) != total || got[0] != "evt-1" || got[total-1] != wire.FormatEventID(total) {
		t.Fatalf("healthy client got %d envelopes", len(got))
	}
	waitFor(t, func() bool { return len(h.hub.Clients()) == 1 })
	if c := h.hub.Clients(); c[0].ClientID != "healthy" {
		t.Fatalf("the wrong client was dropped: %v", c)
	}
	// The stalled client finds the connection closed before it had everything. (Its
	// send buffer was full, so the 1013 frame may not fit through: 1006 is as honest.)
	stalled.SetReadDeadline(time.Now().Add(10 * time.Second))
	n := 0
	for {
		if _, _, err := stalled.ReadMessage(); err != nil {
			var ce *websocket.CloseError
			if !errors.As(err, &ce) || (ce.Code != 1013 && ce.Code != 1006) {
				t.Fatalf("stalled client ended with %v", err)
			}
			break
		}
		n++
	}
	if n >= total {
		t.Fatalf("stalled client received all %d frames: it was not dropped", n)
	}
	// The log says who fell behind and how much it had not received.
	line := regexp.MustCompile(`level=INFO msg="ws client fell behind; disconnected with 1013" clientId=stalled remote=127\.0\.0\.1:\d+ why="[^"]+" undeliveredFrames=(\d+) undeliveredBytes=(\d+)`)
	m := line.FindStringSubmatch(logs.String())
	if m == nil || m[1] == "0" || m[2] == "0" {
		t.Fatalf("no info line naming the stalled client and what it missed:\n%s", logs.String())
	}
}

// lockedBuffer is a bytes.Buffer a logger and a test may share.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// A burst larger than a live client's queue closes it with 1013 (try again later).
func TestBurstBeyondQueueCloses1013(t *testing.T) {
	h := newHarness(t, func(o *Options) { o.QueueSize = 8 })
	c := h.mustDial(t, "", nil)
	expectType(t, c, "status")
	publish(t, h.hub, 2000)
	expectClose(t, c, 1013)
	waitFor(t, func() bool { return len(h.hub.Clients()) == 0 })
}

type memJournal struct {
	mu   sync.Mutex
	recs []Record
}

func (j *memJournal) Save(_ context.Context, batch []Record, keep int) error {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.recs = append(j.recs, batch...)
	if len(j.recs) > keep {
		j.recs = j.recs[len(j.recs)-keep:]
	}
	return nil
}

func (j *memJournal) Load(_ context.Context, n int) ([]Record, error) {
	j.mu.Lock()
	defer j.mu.Unlock()
	return append([]Record(nil), j.recs[max(0, len(j.recs)-n):]...), nil
}

func TestJournalSurvivesRestart(t *testing.T) {
	j := &memJournal{}
	first := New(Options{Journal: j, Gate: testGate{}})
	if err := first.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	publish(t, first, 30)
	first.Stop()
	if _, err := first.Publish(wire.NewEnvelope(wire.TypeAgentEvent, "", nil)); !errors.Is(err, ErrClosed) {
		t.Fatalf("publish after stop: %v", err)
	}

	h := newHarness(t, func(o *Options) { o.Journal = j })
	env, err := h.hub.Publish(wire.NewEnvelope(wire.TypeAgentEvent, "", nil))
	if err != nil || env.EventID != "evt-31" {
		t.Fatalf("numbering did not continue: %s %v", env.EventID, err)
	}
	c := h.mustDial(t, "lastEventId=evt-25", nil)
	expectType(t, c, "status")
	if ids := readEnvelopes(t, c, 6); ids[0] != "evt-26" || ids[5] != "evt-31" {
		t.Fatalf("replay after restart = %v", ids)
	}
}

func TestStopClosesClients(t *testing.T) {
	h := newHarness(t)
	c := h.mustDial(t, "", nil)
	expectType(t, c, "status")
	h.hub.Broadcast(wire.NewConfigError("last words"))
	h.hub.Stop()
	expectType(t, c, wire.TypeConfigError) // what was queued goes out before the close
	expectClose(t, c, 1001)
	h.hub.Stop() // idempotent
}

func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatal("condition not met in 5s")
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func TestFrameHandlers(t *testing.T) {
	got := make(chan string, 2)
	h := newHarnessHub(t, func(h *Hub) {
		h.HandleFrame("terminal-input", func(c Client, frame wire.Frame) error {
			in := frame.(wire.TerminalInput)
			got <- c.ClientID + " " + in.RunID + " " + in.Data
			if in.Data == "bad" {
				return errors.New("bad input")
			}
			return nil
		})
	})
	c := h.mustDial(t, "clientId=tab-a", nil)
	expectType(t, c, "status")
	c.WriteMessage(websocket.TextMessage, []byte(`{"type":"terminal-input","runId":"r1","data":"ok"}`))
	if s := <-got; s != `tab-a r1 ok` {
		t.Fatalf("handler got %q", s)
	}
	// A frame of the catalog's type with a field of the wrong type never reaches it.
	c.WriteMessage(websocket.TextMessage, []byte(`{"type":"terminal-input","runId":"r1","data":3}`))
	if m := expectType(t, c, "error"); m["message"] != "malformed terminal-input frame: data must be a JSON string" {
		t.Fatalf("error frame %v", m)
	}
	c.WriteJSON(map[string]string{"type": "ping"})
	expectType(t, c, "pong") // no error frame came first
	c.WriteMessage(websocket.TextMessage, []byte(`{"type":"terminal-input","data":"bad"}`))
	<-got
	if m := expectType(t, c, "error"); m["message"] != "bad input" {
		t.Fatalf("error frame %v", m)
	}
	if n := h.hub.Send(wire.NewTerminalOutput("r", "tab-a", 1, wire.TerminalStdout), func(c Client) bool { return c.ClientID == "tab-a" }); n != 1 {
		t.Fatalf("send reached %d clients", n)
	}
	expectType(t, c, "terminal-output")
}

// A client that does not read is dropped once megabytes wait for it, long before its
// frame count would: big frames (terminal output) must not pile up in memory.
func TestQueuedBytesAreBounded(t *testing.T) {
	h := newHarness(t, func(o *Options) { o.QueueBytes = 1 << 20 })
	c := h.mustDial(t, "clientId=stalled", nil)
	expectType(t, c, "status")
	frame := bigOutput(32 << 10)
	sent := 0
	for range 1000 { // 32 MiB: more than the socket buffers take
		sent += h.hub.Send(frame, nil)
	}
	if sent == 1000 {
		t.Fatal("every frame was queued: the byte limit did not apply")
	}
	waitFor(t, func() bool { return len(h.hub.Clients()) == 0 })
}

// bigOutput is a terminal-output frame of n bytes of output.
func bigOutput(n int) wire.TerminalOutput {
	f := wire.NewTerminalOutput("r", "", 1, wire.TerminalStdout)
	f.Data = strings.Repeat("x", n)
	return f
}

func TestBacklog(t *testing.T) {
	h := newHarness(t, func(o *Options) { o.QueueBytes = 64 << 20 })
	reader := h.mustDial(t, "clientId=reader", nil)
	expectType(t, reader, "status")
	stalled := h.mustDial(t, "clientId=stalled", nil) // never reads past its status
	expectType(t, stalled, "status")
	frame := bigOutput(64 << 10)
	isStalled := func(c Client) bool { return c.ClientID == "stalled" }
	for range 200 { // 12.8 MiB: more than the stalled client's socket buffers take
		h.hub.Send(frame, isStalled)
	}
	waitFor(t, func() bool { return h.hub.Backlog(isStalled) > 1<<20 })
	// The reader may have a periodic frame in flight at any instant: it must drain.
	isReader := func(c Client) bool { return c.ClientID == "reader" }
	waitFor(t, func() bool { return h.hub.Backlog(isReader) == 0 })
	if h.hub.Backlog(nil) < h.hub.Backlog(isStalled) {
		t.Fatal("the backlog of everyone is less than one client's")
	}
}

// A producer waiting for its clients to catch up is woken when one takes a frame, and
// when one goes away.
func TestProgressWakesWaitingProducers(t *testing.T) {
	h := newHarness(t)
	c := h.mustDial(t, "clientId=reader", nil)
	expectType(t, c, "status")
	woken := func(next <-chan struct{}, what string) {
		t.Helper()
		select {
		case <-next:
		case <-time.After(5 * time.Second):
			t.Fatalf("no progress after %s", what)
		}
	}
	next := h.hub.Progress()
	h.hub.Send(bigOutput(10), nil)
	expectType(t, c, "terminal-output")
	woken(next, "a frame was written")
	next = h.hub.Progress()
	c.Close()
	woken(next, "the client went away")
}

func TestOnActiveConversationHearsEachOpenedConversation(t *testing.T) {
	heard := make(chan string, 10)
	h := newHarnessHub(t, func(h *Hub) {
		h.OnActiveConversation(func(c Client, id string) {
			if c.ActiveConversation != id {
				t.Errorf("the client's state %q lags the hook's %q", c.ActiveConversation, id)
			}
			heard <- c.ClientID + ":" + id
		})
	})
	a := h.mustDial(t, "clientId=tab-a", nil)
	expectType(t, a, "status")
	a.WriteJSON(map[string]any{"type": "active-conversation", "conversationId": "conv-1"})
	a.WriteJSON(map[string]any{"type": "active-conversation", "conversationId": nil}) // cleared: not heard
	a.WriteJSON(map[string]any{"type": "active-conversation", "conversationId": "conv-2"})
	for _, want := range []string{"tab-a:conv-1", "tab-a:conv-2"} {
		select {
		case got := <-heard:
			if got != want {
				t.Fatalf("heard %q, want %q", got, want)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("did not hear %q", want)
		}
	}
}
