package store

import (
	"context"
	"errors"
	"testing"
	"time"
)

func TestFileReadsAndEdits(t *testing.T) {
	s, _ := openTemp(t)
	ctx := context.Background()
	now := time.UnixMilli(1_700_000_000_000)
	if err := s.CreateConversation(ctx, Conversation{ID: "c1", Title: "T", RoomID: "r", CreatedAt: now}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.FileReadSHA(ctx, "c1", "/p/a"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("never read: %v", err)
	}
	for _, sha := range []string{"one", "two"} {
		if err := s.SetFileRead(ctx, "c1", "/p/a", sha, now); err != nil {
			t.Fatal(err)
		}
	}
	if sha, err := s.FileReadSHA(ctx, "c1", "/p/a"); sha != "two" || err != nil {
		t.Fatalf("read: %q %v", sha, err)
	}
	if err := s.SetFileRead(ctx, "nope", "/p/a", "x", now); !errors.Is(err, ErrNotFound) {
		t.Fatalf("read in no conversation: %v", err)
	}
	edits := []FileEdit{
		{ID: "ed_1", RunID: "r1", CallID: "call_1", ConversationID: "c1", Path: "/p/a", Existed: true, Before: []byte{},
			BeforeMode: 0o640, AfterSHA256: "x", CreatedAt: now},
		{ID: "ed_2", RunID: "r1", CallID: "call_2", Path: "/p/b", AfterSHA256: "y", CreatedAt: now},
		{ID: "ed_3", RunID: "r1", CallID: "call_3", Path: "/p/c", Existed: true, AfterSHA256: "z", CreatedAt: now},
	}
	for _, e := range edits {
		if err := s.AddFileEdit(ctx, e); err != nil {
			t.Fatal(err)
		}
	}
	dup := edits[0]
	dup.ID = "ed_4"
	if err := s.AddFileEdit(ctx, dup); !errors.Is(err, ErrDuplicate) {
		t.Fatalf("a call's second edit: %v", err)
	}
	got, err := s.FileEditsOfCall(ctx, "call_1")
	if err != nil || len(got) != 1 || got[0].Before == nil || len(got[0].Before) != 0 || got[0].BeforeMode != 0o640 ||
		got[0].ConversationID != "c1" || !got[0].Existed {
		t.Fatalf("edits of call_1: %+v %v", got, err)
	}
	if e, _ := s.FileEditByID(ctx, "ed_3"); e.Before != nil {
		t.Fatalf("nothing kept reads back as %q", e.Before)
	}
	e, err := s.MarkFileEditUndone(ctx, "ed_2", now.Add(time.Second))
	if err != nil || !e.UndoneAt.Equal(now.Add(time.Second)) {
		t.Fatalf("undo: %+v %v", e, err)
	}
	if _, err := s.MarkFileEditUndone(ctx, "ed_2", now); !errors.Is(err, ErrUndone) {
		t.Fatalf("second undo: %v", err)
	}
	if _, err := s.MarkFileEditUndone(ctx, "ed_9", now); !errors.Is(err, ErrNotFound) {
		t.Fatalf("undo of nothing: %v", err)
	}
}
