package store

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"testing"
)

// importOne brings a conversation in with one message, display message and run.
func importOne(ctx context.Context, t *Tx, convID, suffix string) error {
	if err := t.ImportConversation(ctx, Conversation{ID: convID, Title: "Imported", RoomID: "room-" + convID,
		CreatedAt: at(1000), UpdatedAt: at(5000)}); err != nil {
		return err
	}
	if err := t.ImportMessage(ctx, Message{ID: "m" + suffix, ConversationID: convID, Role: "user", Text: "hi",
		CreatedAt: at(9000)}); err != nil {
		return err
	}
	if err := t.ImportDisplayMessage(ctx, DisplayMessage{ID: "d" + suffix, ConversationID: convID, RunID: "r" + suffix,
		MessageType: "assistant", ContentType: "tool_call", Content: json.RawMessage(`{"name":"x"}`), Status: "completed",
		ToolCallID: "call" + suffix, CreatedAt: at(2000), UpdatedAt: at(3000)}); err != nil {
		return err
	}
	return t.ImportRun(ctx, Run{ID: "r" + suffix, ConversationID: convID, UserMessageID: "m" + suffix, Status: RunEnded,
		StartedAt: at(2000), EndedAt: at(4000)}, json.RawMessage(`{"fullText":"done","usage":{"inputTokens":3}}`))
}

func TestImportKeepsRecordsAsGiven(t *testing.T) {
	ctx := context.Background()
	s, _ := openTemp(t)
	if err := s.InTx(ctx, func(t *Tx) error { return importOne(ctx, t, "c1", "1") }); err != nil {
		t.Fatal(err)
	}
	c, err := s.Conversation(ctx, "c1")
	if err != nil {
		t.Fatal(err)
	}
	// A message later than the conversation's updated_at does not move it.
	if !c.UpdatedAt.Equal(at(5000)) || c.RoomID != "room-c1" {
		t.Fatalf("conversation %+v", c)
	}
	msgs, err := s.AllMessages(ctx, "c1")
	if err != nil || len(msgs) != 1 || msgs[0].ID != "m1" || !msgs[0].CreatedAt.Equal(at(9000)) {
		t.Fatalf("messages %+v, %v", msgs, err)
	}
	rows, err := s.AllDisplayMessages(ctx, "c1")
	if err != nil || len(rows) != 1 || rows[0].Status != "completed" || !rows[0].UpdatedAt.Equal(at(3000)) {
		t.Fatalf("display messages %+v, %v", rows, err)
	}
	runs, err := s.ConversationRuns(ctx, "c1")
	want := []Run{{ID: "r1", ConversationID: "c1", UserMessageID: "m1", Status: RunEnded, StartedAt: at(2000), EndedAt: at(4000), Compacted: true}}
	if err != nil || !reflect.DeepEqual(runs, want) {
		t.Fatalf("runs %+v, %v", runs, err)
	}
	outputs, err := s.RunOutputs(ctx, "c1")
	if err != nil || string(outputs["r1"]) != `{"fullText":"done","usage":{"inputTokens":3}}` || len(outputs) != 1 {
		t.Fatalf("outputs %v, %v", outputs, err)
	}
	events, err := s.RunEvents(ctx, "r1", 0, 0)
	if err != nil || len(events) != 1 || events[0].Seq != 1 || events[0].Type != "output" || !events[0].Time.Equal(at(4000)) {
		t.Fatalf("events %+v, %v", events, err)
	}
	// Nothing is left for the compactor.
	if ids, err := s.RunsToCompact(ctx, 0); err != nil || len(ids) != 0 {
		t.Fatalf("runs to compact %v, %v", ids, err)
	}
}

func TestImportDuplicateRollsBackTheConversation(t *testing.T) {
	ctx := context.Background()
	s, _ := openTemp(t)
	if err := s.InTx(ctx, func(t *Tx) error { return importOne(ctx, t, "c1", "1") }); err != nil {
		t.Fatal(err)
	}
	// The same conversation again, and a new conversation whose message id is taken.
	err := s.InTx(ctx, func(t *Tx) error { return importOne(ctx, t, "c1", "2") })
	if !errors.Is(err, ErrDuplicate) {
		t.Fatalf("same conversation again: %v", err)
	}
	err = s.InTx(ctx, func(t *Tx) error { return importOne(ctx, t, "c2", "1") })
	if !errors.Is(err, ErrDuplicate) {
		t.Fatalf("taken message id: %v", err)
	}
	if _, err := s.Conversation(ctx, "c2"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("c2 was kept: %v", err)
	}
	if n, _ := s.MessageCount(ctx, "c1"); n != 1 {
		t.Fatalf("c1 has %d messages", n)
	}
}

func TestImportRunRefusesLiveStatusesAndBadOutput(t *testing.T) {
	ctx := context.Background()
	s, _ := openTemp(t)
	mustCreateConversation(t, s, "c", 1000)
	cases := []struct {
		name   string
		run    Run
		output json.RawMessage
	}{
		{"active", Run{ID: "a", ConversationID: "c", Status: RunActive, StartedAt: at(1), EndedAt: at(2)}, nil},
		{"paused", Run{ID: "p", ConversationID: "c", Status: RunPaused, StartedAt: at(1), EndedAt: at(2)}, nil},
		{"no end", Run{ID: "e", ConversationID: "c", Status: RunEnded, StartedAt: at(1)}, nil},
		{"no start", Run{ID: "s", ConversationID: "c", Status: RunEnded, EndedAt: at(1)}, nil},
		{"bad output", Run{ID: "o", ConversationID: "c", Status: RunEnded, StartedAt: at(1), EndedAt: at(2)}, json.RawMessage(`{`)},
		{"no conversation", Run{ID: "n", ConversationID: "missing", Status: RunEnded, StartedAt: at(1), EndedAt: at(2)}, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			err := s.InTx(ctx, func(tx *Tx) error { return tx.ImportRun(ctx, tc.run, tc.output) })
			if err == nil {
				t.Fatal("imported")
			}
		})
	}
	if runs, _ := s.ConversationRuns(ctx, "c"); len(runs) != 0 {
		t.Fatalf("runs %+v", runs)
	}
}
