package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"testing"
	"time"
)

func mustSaveDisplay(t *testing.T, s *Store, d DisplayMessage) DisplayMessage {
	t.Helper()
	saved, err := s.SaveDisplayMessage(context.Background(), d)
	if err != nil {
		t.Fatal(err)
	}
	return saved
}

func TestDisplayMessageRoundTrip(t *testing.T) {
	tests := []struct {
		name string
		in   DisplayMessage
		want DisplayMessage
	}{
		{"tool call",
			DisplayMessage{ID: "d1", RunID: "r", MessageType: "tool", ContentType: "tool_call", Content: json.RawMessage(`{"callId":"k","name":"shell","arguments":{}}`),
				Status: "pending", ToolCallID: "k", Metadata: json.RawMessage(`{"x":[1]}`), CreatedAt: at(10), UpdatedAt: at(11)},
			DisplayMessage{ID: "d1", ConversationID: "c", RunID: "r", MessageType: "tool", ContentType: "tool_call", Content: json.RawMessage(`{"callId":"k","name":"shell","arguments":{}}`),
				Status: "pending", ToolCallID: "k", Metadata: json.RawMessage(`{"x":[1]}`), CreatedAt: at(10), UpdatedAt: at(11)}},
		{"bare text: NULLs and updated_at from created_at",
			DisplayMessage{ID: "d2", MessageType: "user", ContentType: "text", Content: json.RawMessage(`{"text":"hi"}`), CreatedAt: at(12)},
			DisplayMessage{ID: "d2", ConversationID: "c", MessageType: "user", ContentType: "text", Content: json.RawMessage(`{"text":"hi"}`), CreatedAt: at(12), UpdatedAt: at(12)}},
	}
	s, _ := openTemp(t)
	ctx := context.Background()
	mustCreateConversation(t, s, "c", 1)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.in.ConversationID = "c"
			saved := mustSaveDisplay(t, s, tt.in)
			if !reflect.DeepEqual(saved, tt.want) {
				t.Fatalf("returned %+v\nwant %+v", saved, tt.want)
			}
			got, err := s.DisplayMessages(ctx, "c", 1)
			if err != nil || len(got) != 1 || !reflect.DeepEqual(got[0], tt.want) {
				t.Fatalf("loaded %+v, %v\nwant %+v", got, err, tt.want)
			}
		})
	}
	var nulls int
	if err := s.db.QueryRow(`SELECT (run_id IS NULL) + (status IS NULL) + (tool_call_id IS NULL) + (metadata IS NULL)
		FROM display_messages WHERE id = 'd2'`).Scan(&nulls); err != nil || nulls != 4 {
		t.Fatalf("NULL columns = %d, %v; want 4", nulls, err)
	}
}

func TestSaveDisplayMessageAgainUpdatesInPlace(t *testing.T) {
	s, _ := openTemp(t)
	ctx := context.Background()
	mustCreateConversation(t, s, "c", 1)
	mustCreateConversation(t, s, "other", 1)
	first := mustSaveDisplay(t, s, DisplayMessage{ID: "think", ConversationID: "c", MessageType: "assistant", ContentType: "thinking", Content: json.RawMessage(`{"text":"h"}`), CreatedAt: at(10)})
	mustSaveDisplay(t, s, DisplayMessage{ID: "later", ConversationID: "c", MessageType: "assistant", ContentType: "text", Content: json.RawMessage(`{"text":"x"}`), CreatedAt: at(11)})
	again := mustSaveDisplay(t, s, DisplayMessage{ID: "think", ConversationID: "c", MessageType: "assistant", ContentType: "thinking",
		Content: json.RawMessage(`{"text":"hmm"}`), CreatedAt: at(99), UpdatedAt: at(20)})
	if string(again.Content) != `{"text":"hmm"}` || !again.CreatedAt.Equal(first.CreatedAt) || !again.UpdatedAt.Equal(at(20)) {
		t.Fatalf("saved again = %+v", again)
	}
	all, _ := s.DisplayMessages(ctx, "c", 0)
	if ids := pluck(func(d DisplayMessage) string { return d.ID }, all); !reflect.DeepEqual(ids, []string{"think", "later"}) {
		t.Fatalf("order after re-save = %v, want the original place kept", ids)
	}
	if _, err := s.SaveDisplayMessage(ctx, DisplayMessage{ID: "think", ConversationID: "other", MessageType: "assistant", ContentType: "text",
		Content: json.RawMessage(`{}`), CreatedAt: at(30)}); err == nil {
		t.Fatal("an id of another conversation was overwritten")
	}
	if got, _ := s.DisplayMessages(ctx, "other", 0); len(got) != 0 {
		t.Fatalf("other conversation got %v", got)
	}
}

func TestSaveDisplayMessageRejects(t *testing.T) {
	s, _ := openTemp(t)
	ctx := context.Background()
	mustCreateConversation(t, s, "c", 1)
	valid := func(f func(*DisplayMessage)) DisplayMessage {
		d := DisplayMessage{ID: "d", ConversationID: "c", MessageType: "tool", ContentType: "tool_call", Content: json.RawMessage(`{}`), CreatedAt: at(1)}
		f(&d)
		return d
	}
	tests := []struct {
		name     string
		d        DisplayMessage
		notFound bool
	}{
		{"unknown conversation", valid(func(d *DisplayMessage) { d.ConversationID = "missing" }), true},
		{"bad message type", valid(func(d *DisplayMessage) { d.MessageType = "robot" }), false},
		{"bad content type", valid(func(d *DisplayMessage) { d.ContentType = "image" }), false},
		{"bad status", valid(func(d *DisplayMessage) { d.Status = "done" }), false},
		{"no content", valid(func(d *DisplayMessage) { d.Content = nil }), false},
		{"content not JSON", valid(func(d *DisplayMessage) { d.Content = json.RawMessage(`nope`) }), false},
		{"metadata not JSON", valid(func(d *DisplayMessage) { d.Metadata = json.RawMessage(`{`) }), false},
		{"no created time", valid(func(d *DisplayMessage) { d.CreatedAt = time.Time{} }), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := s.SaveDisplayMessage(ctx, tt.d)
			if err == nil || errors.Is(err, ErrNotFound) != tt.notFound {
				t.Fatalf("err = %v, want an error (ErrNotFound: %v)", err, tt.notFound)
			}
		})
	}
	if got, _ := s.DisplayMessages(ctx, "c", 0); len(got) != 0 {
		t.Fatalf("rejected messages were saved: %v", got)
	}
}

func TestUpdateToolStatus(t *testing.T) {
	s, _ := openTemp(t)
	ctx := context.Background()
	mustCreateConversation(t, s, "c", 1)
	call := mustSaveDisplay(t, s, DisplayMessage{ID: "call", ConversationID: "c", RunID: "r", MessageType: "tool", ContentType: "tool_call",
		Content: json.RawMessage(`{"callId":"k"}`), Status: "pending", ToolCallID: "k", CreatedAt: at(10)})
	result := mustSaveDisplay(t, s, DisplayMessage{ID: "result", ConversationID: "c", RunID: "r", MessageType: "tool", ContentType: "tool_result",
		Content: json.RawMessage(`{"callId":"k","result":"ok"}`), ToolCallID: "k", CreatedAt: at(12)})
	// The same call id in another run, saved later (an import, a server that numbers
	// every reply's calls from call_0): never the row a status of run r changes.
	mustCreateConversation(t, s, "other", 1)
	other := mustSaveDisplay(t, s, DisplayMessage{ID: "other-call", ConversationID: "other", RunID: "r2", MessageType: "tool", ContentType: "tool_call",
		Content: json.RawMessage(`{"callId":"k"}`), Status: "pending", ToolCallID: "k", CreatedAt: at(15)})

	got, err := s.UpdateToolStatus(ctx, "r", "k", "executing", nil, at(20))
	if err != nil {
		t.Fatal(err)
	}
	want := call
	want.Status, want.UpdatedAt = "executing", at(20)
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %+v\nwant %+v", got, want)
	}
	got, err = s.UpdateToolStatus(ctx, "r", "k", "completed", json.RawMessage(`{"callId":"k","done":true}`), at(30))
	if err != nil {
		t.Fatal(err)
	}
	want.Status, want.Content, want.UpdatedAt = "completed", json.RawMessage(`{"callId":"k","done":true}`), at(30)
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %+v\nwant %+v", got, want)
	}
	all, _ := s.DisplayMessages(ctx, "c", 0)
	if !reflect.DeepEqual(all, []DisplayMessage{want, result}) {
		t.Fatalf("stored %+v\nwant the call updated and the result untouched", all)
	}
	if others, _ := s.DisplayMessages(ctx, "other", 0); !reflect.DeepEqual(others, []DisplayMessage{other}) {
		t.Fatalf("the other run's row changed: %+v", others)
	}

	for name, id := range map[string]string{"unknown call": "missing", "empty id": ""} {
		if _, err := s.UpdateToolStatus(ctx, "r", id, "failed", nil, at(40)); !errors.Is(err, ErrNotFound) {
			t.Errorf("%s: err = %v, want ErrNotFound", name, err)
		}
	}
	if _, err := s.UpdateToolStatus(ctx, "r3", "k", "failed", nil, at(40)); !errors.Is(err, ErrNotFound) {
		t.Errorf("a run without the call: err = %v, want ErrNotFound", err)
	}
	if _, err := s.UpdateToolStatus(ctx, "r", "k", "bogus", nil, at(40)); err == nil || errors.Is(err, ErrNotFound) {
		t.Errorf("bad status: err = %v", err)
	}
	if _, err := s.UpdateToolStatus(ctx, "r", "k", "failed", json.RawMessage(`{`), at(40)); err == nil {
		t.Error("content that is not JSON accepted")
	}
}

func TestDisplayMessagesLastNAscending(t *testing.T) {
	s, _ := openTemp(t)
	ctx := context.Background()
	mustCreateConversation(t, s, "c", 1)
	mustCreateConversation(t, s, "other", 1)
	for i := 1; i <= 4; i++ {
		for _, c := range []string{"c", "other"} {
			mustSaveDisplay(t, s, DisplayMessage{ID: fmt.Sprintf("%s%d", c, i), ConversationID: c, MessageType: "assistant",
				ContentType: "text", Content: json.RawMessage(`{}`), CreatedAt: at(int64(100 - i))})
		}
	}
	tests := []struct {
		limit int
		want  []string
	}{
		{1, []string{"c4"}},
		{3, []string{"c2", "c3", "c4"}},
		{0, []string{"c1", "c2", "c3", "c4"}},
		{9, []string{"c1", "c2", "c3", "c4"}},
	}
	for _, tt := range tests {
		got, err := s.DisplayMessages(ctx, "c", tt.limit)
		if err != nil {
			t.Fatal(err)
		}
		if ids := pluck(func(d DisplayMessage) string { return d.ID }, got); !reflect.DeepEqual(ids, tt.want) {
			t.Errorf("limit %d: %v, want %v", tt.limit, ids, tt.want)
		}
	}
	if got, err := s.DisplayMessages(ctx, "missing", 0); err != nil || got == nil || len(got) != 0 {
		t.Errorf("unknown conversation: %v, %v", got, err)
	}
}
