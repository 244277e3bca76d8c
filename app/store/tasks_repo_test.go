package store

import (
	"context"
	"errors"
	"testing"
	"time"
)

// TestMoveTaskNext: a claim moves the task's next run only while the task still
// has the slot it read due and is not paused, and gets the row as moved.
func TestMoveTaskNext(t *testing.T) {
	s, _ := openTemp(t)
	ctx := context.Background()
	addConversation(t, s, "c1", rt0)
	slot := rt0.Add(time.Hour)
	if err := s.CreateTask(ctx, Task{ID: "t1", Prompt: "p", ConversationID: "c1", Cron: "0 * * * *", DTStart: rt0,
		CatchUp: true, NextRunAt: slot, Grants: []byte(`[{"kind":"shell","base":"git status"}]`), CreatedAt: rt0}); err != nil {
		t.Fatal(err)
	}
	move := func(from, next time.Time) (Task, error) {
		var got Task
		err := s.InTx(ctx, func(tx *Tx) error {
			var err error
			got, err = tx.MoveTaskNext(ctx, "t1", from, next)
			return err
		})
		return got, err
	}
	if _, err := move(slot.Add(-time.Minute), slot.Add(time.Hour)); !errors.Is(err, ErrNotFound) {
		t.Fatalf("another slot: %v", err)
	}
	got, err := move(slot, slot.Add(time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	if !got.NextRunAt.Equal(slot.Add(time.Hour)) || got.Prompt != "p" || string(got.Grants) != `[{"kind":"shell","base":"git status"}]` {
		t.Fatalf("moved: %+v", got)
	}
	if _, err := move(slot, slot.Add(2*time.Hour)); !errors.Is(err, ErrNotFound) {
		t.Fatalf("the slot moved already: %v", err)
	}
	got.Paused = true
	if err := s.UpdateTask(ctx, got); err != nil {
		t.Fatal(err)
	}
	if _, err := move(got.NextRunAt, time.Time{}); !errors.Is(err, ErrNotFound) {
		t.Fatalf("paused: %v", err)
	}
	if cur, err := s.Task(ctx, "t1"); err != nil || !cur.NextRunAt.Equal(slot.Add(time.Hour)) {
		t.Fatalf("after refused moves: %+v, %v", cur, err)
	}
	got.Paused = false
	if err := s.UpdateTask(ctx, got); err != nil {
		t.Fatal(err)
	}
	if err := s.DeleteTask(ctx, "t1"); err != nil {
		t.Fatal(err)
	}
	if _, err := move(got.NextRunAt, time.Time{}); !errors.Is(err, ErrNotFound) {
		t.Fatalf("deleted: %v", err)
	}
}
