package store

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"testing"
	"time"
)

// at is a time in whole milliseconds, the precision the store keeps.
func at(ms int64) time.Time { return time.UnixMilli(ms) }

func mustCreateConversation(t *testing.T, s *Store, id string, ms int64) Conversation {
	t.Helper()
	c := Conversation{ID: id, Title: "Chat " + id, RoomID: "room-" + id, CreatedAt: at(ms), UpdatedAt: at(ms)}
	if err := s.CreateConversation(context.Background(), c); err != nil {
		t.Fatal(err)
	}
	return c
}

func TestConversationRoundTrip(t *testing.T) {
	tests := []struct {
		name string
		in   Conversation
		want Conversation
	}{
		{
			name: "metadata",
			in:   Conversation{ID: "a", Title: "A", RoomID: "r", Metadata: json.RawMessage(`{"pinned":true}`), CreatedAt: at(10), UpdatedAt: at(20)},
			want: Conversation{ID: "a", Title: "A", RoomID: "r", Metadata: json.RawMessage(`{"pinned":true}`), CreatedAt: at(10), UpdatedAt: at(20)},
		},
		{
			name: "nil metadata is NULL and zero updated_at is created_at",
			in:   Conversation{ID: "b", Title: "B", RoomID: "r", CreatedAt: at(10)},
			want: Conversation{ID: "b", Title: "B", RoomID: "r", CreatedAt: at(10), UpdatedAt: at(10)},
		},
		{
			name: "JSON null is kept as a value",
			in:   Conversation{ID: "c", Title: "C", RoomID: "r", Metadata: json.RawMessage(`null`), CreatedAt: at(10), UpdatedAt: at(10)},
			want: Conversation{ID: "c", Title: "C", RoomID: "r", Metadata: json.RawMessage(`null`), CreatedAt: at(10), UpdatedAt: at(10)},
		},
	}
	s, _ := openTemp(t)
	ctx := context.Background()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := s.CreateConversation(ctx, tt.in); err != nil {
				t.Fatal(err)
			}
			got, err := s.Conversation(ctx, tt.in.ID)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Fatalf("got %+v\nwant %+v", got, tt.want)
			}
		})
	}
	var isNull bool
	if err := s.db.QueryRow("SELECT metadata IS NULL FROM conversations WHERE id = 'b'").Scan(&isNull); err != nil || !isNull {
		t.Fatalf("nil metadata stored as NULL = %v, %v", isNull, err)
	}
}

func TestCreateConversationRejects(t *testing.T) {
	s, _ := openTemp(t)
	ctx := context.Background()
	mustCreateConversation(t, s, "a", 1)
	for name, c := range map[string]Conversation{
		"duplicate id":     {ID: "a", Title: "again", RoomID: "r", CreatedAt: at(2)},
		"invalid metadata": {ID: "b", Title: "B", RoomID: "r", Metadata: json.RawMessage(`{`), CreatedAt: at(2)},
		"no created time":  {ID: "c", Title: "C", RoomID: "r"},
	} {
		if err := s.CreateConversation(ctx, c); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

func TestConversationsNewestFirst(t *testing.T) {
	s, _ := openTemp(t)
	ctx := context.Background()
	got, err := s.Conversations(ctx)
	if err != nil || got == nil || len(got) != 0 {
		t.Fatalf("empty store: %v, %v", got, err)
	}
	mustCreateConversation(t, s, "old", 100)
	mustCreateConversation(t, s, "tie-older", 200)
	mustCreateConversation(t, s, "new", 300)
	if err := s.CreateConversation(ctx, Conversation{ID: "tie-newer", Title: "t", RoomID: "r", CreatedAt: at(150), UpdatedAt: at(200)}); err != nil {
		t.Fatal(err)
	}
	if err := s.CreateConversation(ctx, Conversation{ID: "tie-newer-created", Title: "t", RoomID: "r", CreatedAt: at(250), UpdatedAt: at(200)}); err != nil {
		t.Fatal(err)
	}
	// A message moves "old" to the top.
	if _, err := s.AddMessage(ctx, Message{ID: "m", ConversationID: "old", Role: "user", Text: "hi", CreatedAt: at(400)}); err != nil {
		t.Fatal(err)
	}
	got, err = s.Conversations(ctx)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"old", "new", "tie-newer-created", "tie-older", "tie-newer"}
	if ids := pluck(func(c Conversation) string { return c.ID }, got); !reflect.DeepEqual(ids, want) {
		t.Fatalf("order = %v, want %v", ids, want)
	}
}

func TestSetConversationTitle(t *testing.T) {
	s, _ := openTemp(t)
	ctx := context.Background()
	mustCreateConversation(t, s, "a", 100)
	got, err := s.SetConversationTitle(ctx, "a", "Renamed", at(500))
	if err != nil {
		t.Fatal(err)
	}
	if got.Title != "Renamed" || !got.UpdatedAt.Equal(at(500)) || !got.CreatedAt.Equal(at(100)) {
		t.Fatalf("renamed = %+v", got)
	}
	if stored, _ := s.Conversation(ctx, "a"); !reflect.DeepEqual(stored, got) {
		t.Fatalf("stored %+v, returned %+v", stored, got)
	}
	// updated_at never moves back.
	if got, err = s.SetConversationTitle(ctx, "a", "Again", at(300)); err != nil || !got.UpdatedAt.Equal(at(500)) || got.Title != "Again" {
		t.Fatalf("older rename = %+v, %v", got, err)
	}
	if _, err := s.SetConversationTitle(ctx, "missing", "x", at(1)); !errors.Is(err, ErrNotFound) {
		t.Fatalf("unknown conversation: err = %v, want ErrNotFound", err)
	}
}

func TestConversationNotFound(t *testing.T) {
	s, _ := openTemp(t)
	ctx := context.Background()
	if _, err := s.Conversation(ctx, "missing"); !errors.Is(err, ErrNotFound) {
		t.Errorf("Conversation: err = %v", err)
	}
	if err := s.DeleteConversation(ctx, "missing"); !errors.Is(err, ErrNotFound) {
		t.Errorf("DeleteConversation: err = %v", err)
	}
}

func TestDeleteConversationCascades(t *testing.T) {
	s, _ := openTemp(t)
	ctx := context.Background()
	for _, id := range []string{"gone", "kept"} {
		mustCreateConversation(t, s, id, 1)
		mustAddMessage(t, s, Message{ID: id + "-m", ConversationID: id, Role: "user", Text: "hi", CreatedAt: at(2)})
		mustCreateRun(t, s, Run{ID: id + "-r", ConversationID: id, UserMessageID: id + "-m", StartedAt: at(3)})
		if err := s.AppendRunEvents(ctx, []RunEvent{{RunID: id + "-r", Seq: 1, Type: "token", Data: json.RawMessage(`{}`), Time: at(4)}}); err != nil {
			t.Fatal(err)
		}
		if _, err := s.SaveDisplayMessage(ctx, DisplayMessage{ID: id + "-d", ConversationID: id, RunID: id + "-r",
			MessageType: "tool", ContentType: "tool_call", Content: json.RawMessage(`{}`), ToolCallID: id + "-call", CreatedAt: at(4)}); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.DeleteConversation(ctx, "gone"); err != nil {
		t.Fatal(err)
	}
	counts := map[string]int{
		"conversations":    2,
		"messages":         2,
		"runs":             2,
		"run_events":       2,
		"display_messages": 2,
	}
	for table, before := range counts {
		var n int
		if err := s.db.QueryRow("SELECT COUNT(*) FROM " + table).Scan(&n); err != nil {
			t.Fatal(err)
		}
		if n != before-1 {
			t.Errorf("%s: %d rows left, want %d", table, n, before-1)
		}
	}
	if _, err := s.Conversation(ctx, "kept"); err != nil {
		t.Errorf("other conversation: %v", err)
	}
	if evs, _ := s.RunEvents(ctx, "kept-r", 0, 0); len(evs) != 1 {
		t.Errorf("other run's events = %v", evs)
	}
}
