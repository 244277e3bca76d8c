package store

import (
	"context"
	"errors"
	"testing"
	"time"
)

var rt0 = time.UnixMilli(1_800_000_000_000)

func addConversation(t *testing.T, s *Store, id string, updated time.Time) {
	t.Helper()
	if err := s.CreateConversation(context.Background(), Conversation{ID: id, Title: id, RoomID: "room-" + id, CreatedAt: updated}); err != nil {
		t.Fatal(err)
	}
}

func TestRemindersLifecycle(t *testing.T) {
	s, _ := openTemp(t)
	ctx := context.Background()
	addConversation(t, s, "c1", rt0)
	for _, r := range []Reminder{
		{ID: "late", ConversationID: "c1", Text: "b", At: rt0.Add(2 * time.Minute), CreatedAt: rt0},
		{ID: "soon", Text: "a", At: rt0.Add(time.Minute), CreatedAt: rt0},
		{ID: "far", ConversationID: "c1", Text: "c", At: rt0.Add(time.Hour), CreatedAt: rt0},
	} {
		if err := s.AddReminder(ctx, r); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.AddReminder(ctx, Reminder{ID: "x", ConversationID: "nope", Text: "x", At: rt0, CreatedAt: rt0}); !errors.Is(err, ErrNotFound) {
		t.Fatalf("unknown conversation: %v", err)
	}
	if err := s.AddReminder(ctx, Reminder{ID: "y", Text: "x", CreatedAt: rt0}); err == nil {
		t.Fatal("a reminder without a time was saved")
	}
	next, ok, err := s.NextReminder(ctx)
	if err != nil || !ok || next.ID != "soon" || next.ConversationID != "" {
		t.Fatalf("next %+v %v %v", next, ok, err)
	}
	due, err := s.DueReminders(ctx, rt0.Add(2*time.Minute), 10)
	if err != nil || len(due) != 2 || due[0].ID != "soon" || due[1].ID != "late" {
		t.Fatalf("due %+v %v", due, err)
	}

	// Delivery is marked once.
	deliver := func(id string) error {
		return s.InTx(ctx, func(tx *Tx) error { return tx.MarkReminderDelivered(ctx, id, rt0.Add(3*time.Minute), true, "m-"+id) })
	}
	if err := deliver("late"); err != nil {
		t.Fatal(err)
	}
	if err := deliver("late"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("second delivery: %v", err)
	}
	got, err := s.Reminder(ctx, "late")
	if err != nil || got.Pending() || !got.Late || got.MessageID != "m-late" || !got.DeliveredAt.Equal(rt0.Add(3*time.Minute)) {
		t.Fatalf("delivered %+v %v", got, err)
	}
	list, err := s.Reminders(ctx, 10)
	if err != nil || len(list) != 3 || list[0].ID != "soon" || list[1].ID != "far" || list[2].ID != "late" {
		t.Fatalf("list %+v %v", list, err)
	}
	if list, _ := s.Reminders(ctx, 1); len(list) != 3 {
		t.Fatalf("the delivered limit cut pending ones: %+v", list)
	}

	// Deleting the conversation keeps its reminders, without it.
	if err := s.DeleteConversation(ctx, "c1"); err != nil {
		t.Fatal(err)
	}
	if far, _ := s.Reminder(ctx, "far"); far.ConversationID != "" {
		t.Fatalf("far still points at %q", far.ConversationID)
	}
	if err := s.DeleteReminder(ctx, "far"); err != nil {
		t.Fatal(err)
	}
	if err := s.DeleteReminder(ctx, "far"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("delete again: %v", err)
	}
	if _, err := s.Reminder(ctx, "far"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("load deleted: %v", err)
	}
}

func TestTxRollsBackOnErrorAndPanic(t *testing.T) {
	s, _ := openTemp(t)
	ctx := context.Background()
	addConversation(t, s, "c1", rt0)
	write := func(tx *Tx, id string) {
		if _, err := tx.AddMessage(ctx, Message{ID: id, ConversationID: "c1", Role: "assistant", Text: "hi", CreatedAt: rt0.Add(time.Minute)}); err != nil {
			t.Fatal(err)
		}
	}
	boom := errors.New("boom")
	if err := s.InTx(ctx, func(tx *Tx) error { write(tx, "m1"); return boom }); !errors.Is(err, boom) {
		t.Fatalf("err %v", err)
	}
	func() {
		defer func() {
			if recover() == nil {
				t.Fatal("the panic was swallowed")
			}
		}()
		_ = s.InTx(ctx, func(tx *Tx) error { write(tx, "m2"); panic("crash") })
	}()
	if n, _ := s.MessageCount(ctx, "c1"); n != 0 {
		t.Fatalf("%d messages survived a rollback", n)
	}
	if c, _ := s.Conversation(ctx, "c1"); !c.UpdatedAt.Equal(rt0) {
		t.Fatal("updated_at moved in a rolled-back transaction")
	}
	// The database is usable afterwards, and a commit keeps everything.
	err := s.InTx(ctx, func(tx *Tx) error {
		write(tx, "m3")
		_, err := tx.SetUnread(ctx, "c1", true)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	c, _ := s.Conversation(ctx, "c1")
	if n, _ := s.MessageCount(ctx, "c1"); n != 1 || !c.Unread || !c.UpdatedAt.Equal(rt0.Add(time.Minute)) {
		t.Fatalf("after commit: %d messages, %+v", n, c)
	}
}

func TestUnreadAndLatest(t *testing.T) {
	s, _ := openTemp(t)
	ctx := context.Background()
	if _, err := s.LatestConversation(ctx); !errors.Is(err, ErrNotFound) {
		t.Fatalf("latest of none: %v", err)
	}
	addConversation(t, s, "old", rt0)
	addConversation(t, s, "new", rt0.Add(time.Minute))
	if c, err := s.LatestConversation(ctx); err != nil || c.ID != "new" || c.Unread {
		t.Fatalf("latest %+v %v", c, err)
	}
	if err := s.InTx(ctx, func(tx *Tx) error { _, err := tx.SetUnread(ctx, "old", true); return err }); err != nil {
		t.Fatal(err)
	}
	if err := s.InTx(ctx, func(tx *Tx) error { _, err := tx.SetUnread(ctx, "nope", true); return err }); !errors.Is(err, ErrNotFound) {
		t.Fatalf("unknown conversation: %v", err)
	}
	c, changed, err := s.MarkRead(ctx, "old")
	if err != nil || !changed || c.Unread || c.ID != "old" {
		t.Fatalf("mark read %+v %v %v", c, changed, err)
	}
	for _, id := range []string{"old", "nope"} {
		if _, changed, err := s.MarkRead(ctx, id); err != nil || changed {
			t.Fatalf("mark %s read again: %v %v", id, changed, err)
		}
	}
}

func TestActivityLookups(t *testing.T) {
	s, _ := openTemp(t)
	ctx := context.Background()
	if at, err := s.LastUserMessageAt(ctx); err != nil || !at.IsZero() {
		t.Fatalf("no messages: %v %v", at, err)
	}
	addConversation(t, s, "c1", rt0)
	for i, m := range []Message{
		{Role: "user", CreatedAt: rt0.Add(time.Minute)},
		{Role: "assistant", Source: "autonomy", CreatedAt: rt0.Add(2 * time.Minute)},
		{Role: "assistant", Source: "autonomy", CreatedAt: rt0.Add(10 * time.Minute)},
		{Role: "assistant", Source: "chat", CreatedAt: rt0.Add(11 * time.Minute)},
		{Role: "user", CreatedAt: rt0.Add(5 * time.Minute)},
	} {
		m.ID, m.ConversationID, m.Text = string(rune('a'+i)), "c1", "x"
		if _, err := s.AddMessage(ctx, m); err != nil {
			t.Fatal(err)
		}
	}
	if at, err := s.LastUserMessageAt(ctx); err != nil || !at.Equal(rt0.Add(5*time.Minute)) {
		t.Fatalf("last user message %v %v", at, err)
	}
	if n, err := s.CountMessagesSince(ctx, "autonomy", rt0.Add(2*time.Minute)); err != nil || n != 2 {
		t.Fatalf("count %d %v", n, err)
	}
	if n, _ := s.CountMessagesSince(ctx, "autonomy", rt0.Add(3*time.Minute)); n != 1 {
		t.Fatalf("count since 3 min: %d", n)
	}
}
