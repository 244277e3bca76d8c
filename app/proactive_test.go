package app

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/wispapp/wisp/app/store"
	"github.com/wispapp/wisp/internal/clock"
	"github.com/wispapp/wisp/runtime/llm/llmtest"
)

func (a *termApp) newConversation() string {
	a.t.Helper()
	ans := a.do("POST", "/api/conversations", map[string]any{}, nil)
	if ans.status != 200 {
		a.t.Fatalf("create conversation: %d %v", ans.status, ans.body)
	}
	return ans.body["conversation"].(map[string]any)["id"].(string)
}

func TestReminderRoutes(t *testing.T) {
	a := startTerminal(t, `{}`, nil)
	conv := a.newConversation()
	for _, tc := range []struct {
		body any
		code int
		msg  string
	}{
		{map[string]any{"text": "x"}, 400, "give the reminder's time"},
		{map[string]any{"text": "x", "inMinutes": 5, "conversationId": "nope"}, 404, "conversation not found"},
		{map[string]any{"text": "x", "at": "soon"}, 400, "RFC 3339"},
		{`{"text": 5}`, 400, "invalid JSON body"},
		{`not json`, 400, "invalid JSON body"},
	} {
		got := a.do("POST", "/api/reminders", tc.body, nil)
		if got.status != tc.code || !strings.Contains(str(got.body["error"]), tc.msg) {
			t.Errorf("POST %v: %d %v, want %d %q", tc.body, got.status, got.body, tc.code, tc.msg)
		}
	}
	made := a.do("POST", "/api/reminders", map[string]any{"conversationId": conv, "text": "stretch", "inMinutes": 30}, nil)
	if made.status != 201 || made.body["status"] != "pending" || made.body["conversationId"] != conv || made.body["id"] == "" {
		t.Fatalf("created %d %v", made.status, made.body)
	}
	id := made.body["id"].(string)
	at, err := time.Parse(time.RFC3339, str(made.body["at"]))
	if err != nil || at.Sub(time.Now()) < 29*time.Minute || at.Sub(time.Now()) > 31*time.Minute {
		t.Fatalf("at %v (%v)", made.body["at"], err)
	}
	list := a.do("GET", "/api/reminders", nil, nil).body["reminders"].([]any)
	if len(list) != 1 || list[0].(map[string]any)["id"] != id {
		t.Fatalf("list %v", list)
	}
	if got := a.do("DELETE", "/api/reminders/"+id, nil, nil); got.status != 200 || got.body["ok"] != true {
		t.Fatalf("delete %d %v", got.status, got.body)
	}
	if got := a.do("DELETE", "/api/reminders/"+id, nil, nil); got.status != 404 {
		t.Fatalf("delete again %d %v", got.status, got.body)
	}
	if list := a.do("GET", "/api/reminders", nil, nil).body["reminders"].([]any); len(list) != 0 {
		t.Fatalf("list after delete %v", list)
	}
}

func TestAutonomyRoute(t *testing.T) {
	a := startTerminal(t, `{"autonomy": {"intervalMs": 1000}}`, nil)
	got := a.do("GET", "/api/agent/autonomy", nil, nil)
	if got.status != 200 || got.body["enabled"] != false || got.body["intervalMs"] != 5000.0 || got.body["maxPerHour"] != 4.0 {
		t.Fatalf("GET %d %v (a 1 s interval is clamped to 5 s)", got.status, got.body)
	}
	for _, body := range []string{`{}`, `{"enabled":"yes"}`, `[]`} {
		if got := a.do("POST", "/api/agent/autonomy", body, nil); got.status != 400 {
			t.Errorf("POST %s: %d %v", body, got.status, got.body)
		}
	}
	w := dialSocket(t, a.App, "")
	got = a.do("POST", "/api/agent/autonomy", map[string]any{"enabled": true}, nil)
	if got.status != 200 || got.body["enabled"] != true || got.body["nextTickAt"] == nil {
		t.Fatalf("POST on: %d %v", got.status, got.body)
	}
	data, _ := os.ReadFile(a.settings.Path())
	if !strings.Contains(string(data), `"enabled": true`) || !strings.Contains(string(data), `"intervalMs": 1000`) {
		t.Fatalf("the file was not updated as asked:\n%s", data)
	}
	w.waitFor(t, func(m map[string]any) bool { return m["type"] == "status" && m["autonomyEnabled"] == true })
	if st := a.do("GET", "/api/status", nil, nil).body; st["autonomyEnabled"] != true {
		t.Fatalf("status %v", st)
	}
	handEdit(t, a.App, `{"autonomy": {`)
	w.waitFor(t, ofType("config-error"))
	if got := a.do("POST", "/api/agent/autonomy", map[string]any{"enabled": false}, nil); got.status != 409 {
		t.Fatalf("POST with a broken file: %d %v", got.status, got.body)
	}
}

func TestAgentSchedulesAReminder(t *testing.T) {
	c := startChat(t, t.TempDir())
	conv := c.newConversation()
	c.fake.Script(
		llmtest.ToolTurn(llmtest.Call("c1", "SCHEDULE_REMINDER", map[string]any{"text": "stretch", "inMinutes": 20})),
		llmtest.TextTurn("I will remind you.", 0),
	)
	c.stream(conv, "remind me to stretch in 20 minutes").all(t)
	var out struct {
		Reminders []struct{ ID, Text, ConversationID, Status string }
	}
	if code := c.call("GET", "/api/reminders", nil, &out); code != 200 || len(out.Reminders) != 1 {
		t.Fatalf("reminders %d %+v", code, out)
	}
	if r := out.Reminders[0]; r.Text != "stretch" || r.ConversationID != conv || r.Status != "pending" {
		t.Fatalf("reminder %+v", r)
	}
	req := c.fake.Requests()[0]
	if !strings.Contains(string(req.Body), "SCHEDULE_REMINDER") || !strings.Contains(string(req.Body), "It is now ") {
		t.Fatal("the model was not offered the action with the current time")
	}
	result := c.fake.Requests()[1].Messages
	if last := result[len(result)-1]; !strings.Contains(last.Text, "set for") || last.IsError {
		t.Fatalf("the action's result: %+v", last)
	}
}

func TestReminderDueWhileClosedIsDeliveredOnceAtStart(t *testing.T) {
	dir := t.TempDir()
	c := startChat(t, dir)
	conv := c.newConversation()
	c.Stop()

	st, err := store.Open(context.Background(), filepath.Join(dir, "wisp.db"))
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	err = st.AddReminder(context.Background(), store.Reminder{ID: "r1", ConversationID: conv, Text: "water the plants",
		At: now.Add(-2 * time.Hour), CreatedAt: now.Add(-3 * time.Hour)})
	st.Close()
	if err != nil {
		t.Fatal(err)
	}

	for range 2 { // a second start must not deliver it again
		c = startChat(t, dir)
		var msgs []struct {
			Role, Text, Source, ReminderID string
			Late                           bool
		}
		var out struct{ Messages any }
		deadline := time.Now().Add(15 * time.Second)
		for {
			out.Messages = &msgs
			c.call("GET", "/api/conversations/"+conv+"/messages", nil, &out)
			if len(msgs) > 0 || time.Now().After(deadline) {
				break
			}
			time.Sleep(20 * time.Millisecond)
		}
		if len(msgs) != 1 || msgs[0].Source != "reminder" || !msgs[0].Late || msgs[0].ReminderID != "r1" ||
			!strings.HasSuffix(msgs[0].Text, "water the plants") {
			t.Fatalf("messages %+v", msgs)
		}
		c.Stop()
	}
}

func TestOpeningAConversationClearsItsUnreadMark(t *testing.T) {
	a := startTerminal(t, `{}`, nil)
	convA, convB := a.newConversation(), a.newConversation()
	w := dialSocket(t, a.App, "")
	if err := w.conn.WriteJSON(map[string]any{"type": "active-conversation", "conversationId": convA}); err != nil {
		t.Fatal(err)
	}
	// A reminder due now in B while A is open.
	made := a.do("POST", "/api/reminders", map[string]any{"conversationId": convB, "text": "tea",
		"at": time.Now().Format(time.RFC3339)}, nil)
	if made.status != 201 {
		t.Fatalf("create %d %v", made.status, made.body)
	}
	pm := w.waitFor(t, ofType("proactive-message"))
	if pm["conversationId"] != convB {
		t.Fatalf("proactive-message %v", pm)
	}
	upd := w.waitFor(t, ofType("conversation-updated"))["conversation"].(map[string]any)
	if upd["id"] != convB || upd["unread"] != true {
		t.Fatalf("conversation-updated %v", upd)
	}
	list := a.do("GET", "/api/conversations", nil, nil).body["conversations"].([]any)
	if first := list[0].(map[string]any); first["id"] != convB || first["unread"] != true {
		t.Fatalf("the list does not start with unread B: %v", list)
	}
	if err := w.conn.WriteJSON(map[string]any{"type": "active-conversation", "conversationId": convB}); err != nil {
		t.Fatal(err)
	}
	upd = w.waitFor(t, ofType("conversation-updated"))["conversation"].(map[string]any)
	if upd["id"] != convB || upd["unread"] != false {
		t.Fatalf("after opening B: %v", upd)
	}
	if got := a.do("GET", "/api/conversations/"+convB, nil, nil).body["conversation"].(map[string]any); got["unread"] != false {
		t.Fatalf("B %v", got)
	}
}

func TestLongTerminalRunIsReported(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "wisp.json"), []byte(shellOn), 0o600); err != nil {
		t.Fatal(err)
	}
	clk := clock.NewFake(time.Now())
	opts := testOptions(t, dir, nil)
	opts.Clock, opts.KeepToken = clk, true
	a := &termApp{App: startApp(t, opts), t: t}
	t.Cleanup(func() { a.Stop() })
	conv := a.newConversation()
	w := dialSocket(t, a.App, "clientId=tab")
	id := a.runFor("tab", "sleep 0.3; exit 3")
	w.waitFor(t, func(m map[string]any) bool { return m["runId"] == id && m["event"] == "start" })
	clk.Advance(41 * time.Second) // the run "takes" 41 s on Wisp's clock
	pm := w.waitFor(t, ofType("proactive-message"))
	msg := pm["message"].(map[string]any)
	if pm["conversationId"] != conv || msg["source"] != "terminal" ||
		msg["text"] != "The command `sleep 0.3; exit 3` failed after 41 s with exit code 3." {
		t.Fatalf("proactive-message %v", pm)
	}
}
