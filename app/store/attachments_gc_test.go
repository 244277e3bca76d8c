package store

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// The collection's deletes: unlisted attachments past a time, then blobs no
// attachment names; a listed attachment and a named blob stay.
func TestAttachmentsCollection(t *testing.T) {
	ctx := context.Background()
	s, err := Open(ctx, filepath.Join(t.TempDir(), "wisp.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	old := time.UnixMilli(1_000_000)
	now := old.Add(48 * time.Hour)
	if err := s.CreateConversation(ctx, Conversation{ID: "c", Title: "T", RoomID: "r", CreatedAt: now}); err != nil {
		t.Fatal(err)
	}
	shaA, shaB, shaC := strings.Repeat("aa", 32), strings.Repeat("bb", 32), strings.Repeat("cc", 32)
	for _, b := range []Blob{{SHA256: shaA, Size: 10}, {SHA256: shaB, Size: 20}, {SHA256: shaC, Size: 40}} {
		b.MIME, b.Kind, b.CreatedAt = "text/plain", "text", old
		if _, err := s.PutBlob(ctx, b); err != nil {
			t.Fatal(err)
		}
	}
	for _, a := range []Attachment{
		{ID: "listed", SHA256: shaA, CreatedAt: old},
		{ID: "old", SHA256: shaB, CreatedAt: old},
		{ID: "young", SHA256: shaB, CreatedAt: now},
		{ID: "gone", SHA256: shaC, CreatedAt: old},
	} {
		a.Name = a.ID
		if _, err := s.CreateAttachment(ctx, a); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.AddMessage(ctx, Message{ID: "m", ConversationID: "c", Role: "user", Text: "x", CreatedAt: now,
		AttachmentIDs: []string{"listed"}}); err != nil {
		t.Fatal(err)
	}
	if n, err := s.BlobBytes(ctx); err != nil || n != 70 {
		t.Fatalf("blob bytes: %d %v", n, err)
	}
	n, err := s.DeleteUnlistedAttachments(ctx, now.Add(-24*time.Hour))
	if err != nil || n != 2 {
		t.Fatalf("deleted %d attachments: %v", n, err)
	}
	for id, want := range map[string]bool{"listed": true, "old": false, "young": true, "gone": false} {
		if _, err := s.GetAttachment(ctx, id); (err == nil) != want {
			t.Errorf("%s: %v", id, err)
		}
	}
	shas, err := s.DeleteUnnamedBlobs(ctx)
	if err != nil || !slices.Equal(shas, []string{shaC}) {
		t.Fatalf("deleted blobs %v: %v", shas, err)
	}
	known, err := s.BlobHashes(ctx)
	if err != nil || len(known) != 2 || !known[shaA] || !known[shaB] {
		t.Errorf("blob hashes %v %v", known, err)
	}
	if n, _ := s.BlobBytes(ctx); n != 30 {
		t.Errorf("blob bytes after: %d", n)
	}
}
