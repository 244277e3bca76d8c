package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"testing"
)

func mustAddMessage(t *testing.T, s *Store, m Message) {
	t.Helper()
	if _, err := s.AddMessage(context.Background(), m); err != nil {
		t.Fatal(err)
	}
}

func TestMessageRoundTrip(t *testing.T) {
	tests := []struct {
		name string
		in   Message
	}{
		{"every field", Message{ID: "full", Role: "assistant", Text: "hello", Source: "chat", RunID: "r1",
			ClientMessageID: "c1", Segments: json.RawMessage(`[{"kind":"text","text":"hello"}]`),
			CallbackHistory: []string{"one", "two"}, Metadata: json.RawMessage(`{"k":1}`), CreatedAt: at(10)}},
		{"optional fields absent are NULL", Message{ID: "bare", Role: "user", Text: "hi", CreatedAt: at(11)}},
		{"empty history is not NULL", Message{ID: "empty", Role: "user", Text: "", CallbackHistory: []string{}, CreatedAt: at(12)}},
	}
	s, _ := openTemp(t)
	ctx := context.Background()
	mustCreateConversation(t, s, "c", 1)
	parent := ""
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.in.ConversationID = "c"
			mustAddMessage(t, s, tt.in)
			// Each follows the one before, on the conversation's one branch.
			tt.in.ParentID, tt.in.Depth, parent = parent, i, tt.in.ID
			got, err := s.Messages(ctx, "c", 1)
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != 1 || !reflect.DeepEqual(got[0], tt.in) {
				t.Fatalf("got %+v\nwant %+v", got, tt.in)
			}
		})
	}
	var nulls int
	if err := s.db.QueryRow(`SELECT (source IS NULL) + (run_id IS NULL) + (segments IS NULL) + (callback_history IS NULL)
		+ (client_message_id IS NULL) + (metadata IS NULL) FROM messages WHERE id = 'bare'`).Scan(&nulls); err != nil || nulls != 6 {
		t.Fatalf("NULL columns of the bare message = %d, %v; want 6", nulls, err)
	}
}

func TestAddMessage(t *testing.T) {
	s, _ := openTemp(t)
	ctx := context.Background()
	mustCreateConversation(t, s, "c", 100)
	mustAddMessage(t, s, Message{ID: "m1", ConversationID: "c", Role: "user", Text: "hi", CreatedAt: at(200)})
	if c, _ := s.Conversation(ctx, "c"); !c.UpdatedAt.Equal(at(200)) {
		t.Errorf("updated_at = %v, want the message's time", c.UpdatedAt)
	}
	tests := []struct {
		name     string
		m        Message
		notFound bool
	}{
		{"unknown conversation", Message{ID: "x1", ConversationID: "missing", Role: "user", Text: "hi", CreatedAt: at(1)}, true},
		{"duplicate id", Message{ID: "m1", ConversationID: "c", Role: "user", Text: "hi", CreatedAt: at(300)}, false},
		{"bad role", Message{ID: "x2", ConversationID: "c", Role: "system", Text: "hi", CreatedAt: at(300)}, false},
		{"invalid segments", Message{ID: "x3", ConversationID: "c", Role: "user", Segments: json.RawMessage(`[`), CreatedAt: at(300)}, false},
		{"no time", Message{ID: "x4", ConversationID: "c", Role: "user", Text: "hi"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := s.AddMessage(ctx, tt.m)
			if err == nil || errors.Is(err, ErrNotFound) != tt.notFound {
				t.Fatalf("err = %v, want an error (ErrNotFound: %v)", err, tt.notFound)
			}
		})
	}
	// The failed inserts changed nothing, not even updated_at.
	if n, _ := s.MessageCount(ctx, "c"); n != 1 {
		t.Errorf("count = %d, want 1", n)
	}
	if c, _ := s.Conversation(ctx, "c"); !c.UpdatedAt.Equal(at(200)) {
		t.Errorf("updated_at = %v after failed inserts", c.UpdatedAt)
	}
}

func TestMessagesLastNAscending(t *testing.T) {
	s, _ := openTemp(t)
	ctx := context.Background()
	mustCreateConversation(t, s, "c", 1)
	mustCreateConversation(t, s, "other", 1)
	// Times run backwards on purpose: the order is the insertion order.
	for i := 1; i <= 5; i++ {
		mustAddMessage(t, s, Message{ID: fmt.Sprintf("m%d", i), ConversationID: "c", Role: "user", Text: "t", CreatedAt: at(int64(100 - i))})
		mustAddMessage(t, s, Message{ID: fmt.Sprintf("o%d", i), ConversationID: "other", Role: "user", Text: "t", CreatedAt: at(1)})
	}
	tests := []struct {
		limit int
		want  []string
	}{
		{2, []string{"m4", "m5"}},
		{5, []string{"m1", "m2", "m3", "m4", "m5"}},
		{50, []string{"m1", "m2", "m3", "m4", "m5"}},
		{0, []string{"m1", "m2", "m3", "m4", "m5"}},
		{-1, []string{"m1", "m2", "m3", "m4", "m5"}},
	}
	for _, tt := range tests {
		got, err := s.Messages(ctx, "c", tt.limit)
		if err != nil {
			t.Fatal(err)
		}
		if ids := pluck(func(m Message) string { return m.ID }, got); !reflect.DeepEqual(ids, tt.want) {
			t.Errorf("limit %d: %v, want %v", tt.limit, ids, tt.want)
		}
	}
	if got, err := s.Messages(ctx, "missing", 10); err != nil || got == nil || len(got) != 0 {
		t.Errorf("unknown conversation: %v, %v; want an empty list", got, err)
	}
	if n, err := s.MessageCount(ctx, "c"); err != nil || n != 5 {
		t.Errorf("count = %d, %v", n, err)
	}
	if n, err := s.MessageCount(ctx, "missing"); err != nil || n != 0 {
		t.Errorf("count of unknown = %d, %v", n, err)
	}
}

// chat builds a conversation "c" of three exchanges: user message uN at 10N, its run
// rN started at 10N+1 with a tool call display message, and the reply aN at 10N+5.
// Conversation "other" has one exchange at the same times.
func chat(t *testing.T) *Store {
	t.Helper()
	s, _ := openTemp(t)
	ctx := context.Background()
	for _, c := range []string{"c", "other"} {
		mustCreateConversation(t, s, c, 1)
		for i := 1; i <= 3; i++ {
			if c == "other" && i > 1 {
				break
			}
			base := int64(10 * i)
			u, r, a := fmt.Sprintf("%s-u%d", c, i), fmt.Sprintf("%s-r%d", c, i), fmt.Sprintf("%s-a%d", c, i)
			mustAddMessage(t, s, Message{ID: u, ConversationID: c, Role: "user", Text: "q", CreatedAt: at(base)})
			mustSaveDisplay(t, s, DisplayMessage{ID: u + "-d", ConversationID: c, MessageType: "user", ContentType: "text", Content: json.RawMessage(`{"text":"q"}`), CreatedAt: at(base)})
			mustCreateRun(t, s, Run{ID: r, ConversationID: c, UserMessageID: u, StartedAt: at(base + 1)})
			mustSaveDisplay(t, s, DisplayMessage{ID: r + "-d", ConversationID: c, RunID: r, MessageType: "tool", ContentType: "tool_call", Content: json.RawMessage(`{}`), ToolCallID: r + "-call", CreatedAt: at(base + 2)})
			if err := s.AppendRunEvents(ctx, []RunEvent{{RunID: r, Seq: 1, Type: "done", Data: json.RawMessage(`{}`), Time: at(base + 5)}}); err != nil {
				t.Fatal(err)
			}
			if err := s.EndRun(ctx, r, RunEnded, "", at(base+5), &Message{ID: a, Text: "a", CreatedAt: at(base + 5)}); err != nil {
				t.Fatal(err)
			}
		}
	}
	return s
}

func TestTruncateMessages(t *testing.T) {
	tests := []struct {
		name        string
		messageID   string
		inclusive   bool
		deleted     int
		wantMsgs    []string
		wantRuns    []string
		wantDisplay []string
	}{
		{"at a user message, inclusive", "c-u2", true, 4,
			[]string{"c-u1", "c-a1"}, []string{"c-r1"}, []string{"c-u1-d", "c-r1-d"}},
		{"after a user message: its reply and run go, it stays", "c-u2", false, 3,
			[]string{"c-u1", "c-a1", "c-u2"}, []string{"c-r1"}, []string{"c-u1-d", "c-r1-d", "c-u2-d"}},
		{"after an assistant message keeps its run", "c-a2", false, 2,
			[]string{"c-u1", "c-a1", "c-u2", "c-a2"}, []string{"c-r1", "c-r2"}, []string{"c-u1-d", "c-r1-d", "c-u2-d", "c-r2-d"}},
		{"the first message, inclusive", "c-u1", true, 6, []string{}, []string{}, []string{}},
		{"after the last message", "c-a3", false, 0,
			[]string{"c-u1", "c-a1", "c-u2", "c-a2", "c-u3", "c-a3"}, []string{"c-r1", "c-r2", "c-r3"},
			[]string{"c-u1-d", "c-r1-d", "c-u2-d", "c-r2-d", "c-u3-d", "c-r3-d"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := chat(t)
			ctx := context.Background()
			n, err := s.TruncateMessages(ctx, "c", tt.messageID, tt.inclusive)
			if err != nil {
				t.Fatal(err)
			}
			if n != tt.deleted {
				t.Errorf("deleted %d, want %d", n, tt.deleted)
			}
			msgs, _ := s.Messages(ctx, "c", 0)
			if ids := pluck(func(m Message) string { return m.ID }, msgs); !reflect.DeepEqual(ids, tt.wantMsgs) {
				t.Errorf("messages %v, want %v", ids, tt.wantMsgs)
			}
			if runs := columnOf(t, s, "SELECT id FROM runs WHERE conversation_id = 'c' ORDER BY started_at"); !reflect.DeepEqual(runs, tt.wantRuns) {
				t.Errorf("runs %v, want %v", runs, tt.wantRuns)
			}
			display, _ := s.DisplayMessages(ctx, "c", 0)
			if ids := pluck(func(d DisplayMessage) string { return d.ID }, display); !reflect.DeepEqual(ids, tt.wantDisplay) {
				t.Errorf("display messages %v, want %v", ids, tt.wantDisplay)
			}
			var orphans int
			s.db.QueryRow("SELECT COUNT(*) FROM run_events WHERE run_id NOT IN (SELECT id FROM runs)").Scan(&orphans)
			if orphans != 0 {
				t.Errorf("%d run events of deleted runs left", orphans)
			}
			if n, _ := s.MessageCount(ctx, "other"); n != 2 {
				t.Errorf("other conversation has %d messages, want 2", n)
			}
			if d, _ := s.DisplayMessages(ctx, "other", 0); len(d) != 2 {
				t.Errorf("other conversation has %d display messages, want 2", len(d))
			}
			if _, err := s.Run(ctx, "other-r1"); err != nil {
				t.Errorf("other conversation's run: %v", err)
			}
		})
	}
}

func TestTruncateMessagesNotFound(t *testing.T) {
	s := chat(t)
	ctx := context.Background()
	for name, ids := range map[string][2]string{
		"unknown message":                 {"c", "missing"},
		"message of another conversation": {"c", "other-u1"},
		"unknown conversation":            {"missing", "c-u1"},
	} {
		if _, err := s.TruncateMessages(ctx, ids[0], ids[1], true); !errors.Is(err, ErrNotFound) {
			t.Errorf("%s: err = %v, want ErrNotFound", name, err)
		}
	}
	if n, _ := s.MessageCount(ctx, "c"); n != 6 {
		t.Errorf("count = %d after failed truncations, want 6", n)
	}
}

func columnOf(t *testing.T, s *Store, query string) []string {
	t.Helper()
	rows, err := s.db.Query(query)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	out := []string{}
	for rows.Next() {
		var v string
		if err := rows.Scan(&v); err != nil {
			t.Fatal(err)
		}
		out = append(out, v)
	}
	return out
}
