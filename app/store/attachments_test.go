package store

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// A blob is stored once per hash; attachments name it; a message lists its
// attachments in order as it is saved (an unknown one refuses the whole message),
// and deleting the conversation unlists them.
func TestAttachments(t *testing.T) {
	ctx := context.Background()
	s, err := Open(ctx, filepath.Join(t.TempDir(), "wisp.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	now := time.UnixMilli(time.Now().UnixMilli())
	sha := strings.Repeat("ab", 32)
	b, err := s.PutBlob(ctx, Blob{SHA256: sha, Size: 3, MIME: "image/png", Kind: "image", Width: 2, Height: 1, CreatedAt: now})
	if err != nil || b.Width != 2 {
		t.Fatalf("put: %+v %v", b, err)
	}
	if err := s.SetBlobPages(ctx, sha, 4); err != nil {
		t.Fatal(err)
	}
	if again, err := s.PutBlob(ctx, Blob{SHA256: sha, Size: 99, MIME: "x/y", Kind: "file", CreatedAt: now}); err != nil || again.Size != 3 {
		t.Fatalf("a second put changed the blob: %+v %v", again, err)
	}
	for _, id := range []string{"a1", "a2"} {
		if _, err := s.CreateAttachment(ctx, Attachment{ID: id, SHA256: sha, Name: id + ".png", CreatedAt: now}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.CreateAttachment(ctx, Attachment{ID: "a3", SHA256: strings.Repeat("cd", 32), Name: "x", CreatedAt: now}); !errors.Is(err, ErrNotFound) {
		t.Fatalf("an attachment of no blob: %v", err)
	}
	if err := s.CreateConversation(ctx, Conversation{ID: "c1", Title: "t", CreatedAt: now, UpdatedAt: now}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.AddMessage(ctx, Message{ID: "bad", ConversationID: "c1", Role: "user", Text: "x", CreatedAt: now,
		AttachmentIDs: []string{"a1", "nope"}}); !errors.Is(err, ErrNotFound) {
		t.Fatalf("a message with an unknown attachment: %v", err)
	}
	if n, _ := s.MessageCount(ctx, "c1"); n != 0 {
		t.Fatalf("%d messages saved by a refused add", n)
	}
	if _, err := s.AddMessage(ctx, Message{ID: "m1", ConversationID: "c1", Role: "user", Text: "look", CreatedAt: now,
		AttachmentIDs: []string{"a2", "a1"}}); err != nil {
		t.Fatal(err)
	}
	got, err := s.MessageAttachments(ctx, []string{"m1", "other"})
	if err != nil || len(got) != 1 || len(got["m1"]) != 2 || got["m1"][0].ID != "a2" || got["m1"][1].Blob.MIME != "image/png" || got["m1"][0].Blob.Pages != 4 {
		t.Fatalf("listed: %+v %v", got, err)
	}
	if err := s.DeleteConversation(ctx, "c1"); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.MessageAttachments(ctx, []string{"m1"}); len(got) != 0 {
		t.Fatalf("still listed after the delete: %+v", got)
	}
}
