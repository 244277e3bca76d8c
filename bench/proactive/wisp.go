package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/gorilla/websocket"

	"github.com/wispapp/wisp/app"
	"github.com/wispapp/wisp/bench/benchkit"
)

// wisp is a real Wisp App running in this process on 127.0.0.1, the
// conversation the reminders are set in, and one client connected to its /ws
// with another conversation open, read continuously.
type wisp struct {
	app    *app.App
	dir    string
	client *http.Client
	convID string // where the reminders go
	openID string // the conversation the client has open
	conn   *websocket.Conn
	reader *reader

	// delivered maps every reminder created to the message its
	// proactive-message frame named; created counts them; listed is how many
	// GET /api/reminders showed at the end.
	delivered map[string]string
	created   int
	listed    int
	prefix    string // what Wisp says before a reminder's text
}

func startWisp(ctx context.Context, stateDir string) (*wisp, error) {
	a, err := benchkit.StartApp(ctx, stateDir, nil)
	if err != nil {
		return nil, err
	}
	w := &wisp{app: a, dir: stateDir, client: benchkit.NewHTTPClient(), delivered: map[string]string{}}
	if err := w.connect(ctx); err != nil {
		w.stop()
		return nil, fmt.Errorf("wisp: %w", err)
	}
	return w, nil
}

// connect creates the two conversations and connects the client, which opens
// the second one: the reminders' conversation is then not viewed, so every
// reminder marks it unread.
func (w *wisp) connect(ctx context.Context) error {
	var err error
	if w.convID, err = w.newConversation(ctx, "Reminders (bench)"); err != nil {
		return err
	}
	if w.openID, err = w.newConversation(ctx, "Open in the client (bench)"); err != nil {
		return err
	}
	wsURL := "ws" + strings.TrimPrefix(w.app.URL(), "http") + "/ws?clientId=proactive-bench"
	if w.conn, err = benchkit.DialReady(ctx, wsURL); err != nil {
		return err
	}
	if err := openConversation(w.conn, w.openID); err != nil {
		_ = w.conn.Close()
		return err
	}
	w.reader = newReader(w.conn)
	return nil
}

// newConversation creates an empty conversation and returns its id.
func (w *wisp) newConversation(ctx context.Context, title string) (string, error) {
	var out struct{ Conversation struct{ ID string } }
	err := benchkit.PostJSON(ctx, w.client, w.app.URL()+"/api/conversations", map[string]string{"title": title}, &out)
	if err == nil && out.Conversation.ID == "" {
		err = fmt.Errorf("POST /api/conversations: no id in the answer")
	}
	return out.Conversation.ID, err
}

// openConversation sends the active-conversation frame, then a ping, and waits
// for the pong: the hub handles a socket's frames in order, so the conversation
// is open once the pong is back.
func openConversation(c *websocket.Conn, id string) error {
	if err := c.WriteJSON(map[string]string{"type": "active-conversation", "conversationId": id}); err != nil {
		return fmt.Errorf("active-conversation: %w", err)
	}
	if err := c.WriteJSON(map[string]string{"type": "ping"}); err != nil {
		return fmt.Errorf("ping: %w", err)
	}
	_ = c.SetReadDeadline(time.Now().Add(collectTimeout))
	defer func() { _ = c.SetReadDeadline(time.Time{}) }()
	for {
		var f struct{ Type, Message string }
		if err := c.ReadJSON(&f); err != nil {
			return fmt.Errorf("waiting for the pong: %w", err)
		}
		switch f.Type {
		case "pong":
			return nil
		case "error":
			return fmt.Errorf("active-conversation: %s", f.Message)
		}
	}
}

// wispSample is one reminder's clocks and the proactive-message frame it got.
type wispSample struct {
	full        time.Duration // POST sent → proactive-message read
	due         time.Duration // the reminder's time → proactive-message read (reminders set ahead)
	margin      time.Duration // the POST's answer read → the reminder's time (reminders set ahead)
	answer      time.Duration // POST sent → its answer read
	afterAnswer time.Duration // POST's answer read → proactive-message read (negative: the frame came first)
	gap         time.Duration // reminder-updated (pending) read → proactive-message read
	frame       []byte
}

// sample creates one reminder, due now (lead 0) or at the first whole
// millisecond at least lead from now, waits for its frames and checks them.
func (w *wisp) sample(ctx context.Context, lead time.Duration) (wispSample, error) {
	if err := ctx.Err(); err != nil {
		return wispSample{}, err
	}
	w.created++
	text := fmt.Sprintf("bench reminder %05d", w.created)
	at, due := dueAfter(time.Now(), lead)
	body, err := json.Marshal(map[string]string{"conversationId": w.convID, "text": text, "at": at.Format(time.RFC3339Nano)})
	if err != nil {
		return wispSample{}, err
	}
	start := time.Now()
	var created reminder
	if err := benchkit.PostJSONStatus(ctx, w.client, w.app.URL()+"/api/reminders", json.RawMessage(body), &created, http.StatusCreated); err != nil {
		return wispSample{}, err
	}
	answered := time.Now()
	if created.ID == "" || created.Status != "pending" || created.Text != text {
		return wispSample{}, fmt.Errorf("POST /api/reminders answered %+v", created)
	}
	pending, message, err := w.collect(created.ID, text)
	if err != nil {
		return wispSample{}, fmt.Errorf("reminder %q: %w", text, err)
	}
	if pending.at.Before(start) || lead > 0 && message.at.Before(due) {
		return wispSample{}, fmt.Errorf("reminder %q: a frame before its POST or its time", text)
	}
	return wispSample{
		full: message.at.Sub(start), due: message.at.Sub(due), margin: due.Sub(answered),
		answer: answered.Sub(start), afterAnswer: message.at.Sub(answered), gap: message.at.Sub(pending.at),
		frame: message.raw,
	}, nil
}

// collect reads the five frames one reminder causes, in the order Wisp sends
// them, checks each, and returns the pending reminder-updated and the
// proactive-message.
func (w *wisp) collect(id, text string) (pending, message arrival, err error) {
	if pending, err = w.reader.next("reminder-updated (pending)"); err != nil {
		return
	}
	if err = w.checkReminderFrame(pending, id, text, "pending", ""); err != nil {
		return
	}
	if message, err = w.reader.next("proactive-message"); err != nil {
		return
	}
	var msgID, said string
	if msgID, said, err = w.checkProactive(message, id, text); err != nil {
		return
	}
	w.delivered[id] = msgID
	for _, check := range []func(arrival) error{
		func(a arrival) error { return w.checkDisplay(a, said) },
		w.checkConversation,
		func(a arrival) error { return w.checkReminderFrame(a, id, text, "delivered", msgID) },
	} {
		var a arrival
		if a, err = w.reader.next("next"); err != nil {
			return
		}
		if err = check(a); err != nil {
			return
		}
	}
	return pending, message, nil
}

func (w *wisp) checkReminderFrame(a arrival, id, text, status, msgID string) error {
	r := a.f.Reminder
	if a.f.Type != "reminder-updated" || r == nil || r.ID != id || r.Text != text || r.Status != status ||
		r.ConversationID == nil || *r.ConversationID != w.convID || r.Late || r.MessageID != msgID {
		return fmt.Errorf("got %.300s, want reminder-updated (%s)", a.raw, status)
	}
	return nil
}

// checkProactive checks the proactive-message frame and returns its message's
// id and text. The text must be the reminder's, after the same words as every
// other reminder's (learnt from the first: app/proactive/reminders.go words
// it).
func (w *wisp) checkProactive(a arrival, id, text string) (msgID, said string, err error) {
	var m proactiveMessage
	if a.f.Type != "proactive-message" || a.f.ConversationID != w.convID || json.Unmarshal(a.f.Message, &m) != nil ||
		m.ID == "" || m.Role != "assistant" || !strings.HasSuffix(m.Text, text) || m.Source != "reminder" ||
		m.ReminderID != id || m.Late == nil || *m.Late || m.Timestamp <= 0 {
		return "", "", fmt.Errorf("got %.300s, want its proactive-message", a.raw)
	}
	prefix := strings.TrimSuffix(m.Text, text)
	if w.created == 1 {
		w.prefix = prefix
	}
	if prefix != w.prefix {
		return "", "", fmt.Errorf("message %q, want %q", m.Text, w.prefix+text)
	}
	return m.ID, m.Text, nil
}

func (w *wisp) checkDisplay(a arrival, said string) error {
	var d displayRow
	if a.f.Type != "display-message-saved" || a.f.ConversationID != w.convID || json.Unmarshal(a.f.Message, &d) != nil ||
		d.ConversationID != w.convID || d.MessageType != "assistant" || d.ContentType != "text" || d.Content.Text != said {
		return fmt.Errorf("got %.300s, want its display-message-saved", a.raw)
	}
	return nil
}

func (w *wisp) checkConversation(a arrival) error {
	c := a.f.Conversation
	if a.f.Type != "conversation-updated" || c == nil || c.ID != w.convID || !c.Unread {
		return fmt.Errorf("got %.300s, want conversation-updated, unread", a.raw)
	}
	return nil
}

func (w *wisp) stop() {
	if w.reader != nil {
		w.reader.close(func() { closeConn(w.conn) })
	} else if w.conn != nil {
		_ = w.conn.Close()
	}
	_ = w.app.Stop()
}
