package store

import (
	"context"
	"errors"
	"path/filepath"
	"testing"
	"time"
)

// A summary is saved streaming, finished with its usage, listed by status and by the
// messages of a page, undone; one left streaming is failed; token counts are kept
// with their counter.
func TestSummaries(t *testing.T) {
	ctx := context.Background()
	s, err := Open(ctx, filepath.Join(t.TempDir(), "wisp.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	conv := Conversation{ID: "c1", Title: "t", CreatedAt: time.Now(), UpdatedAt: time.Now()}
	if err := s.CreateConversation(ctx, conv); err != nil {
		t.Fatal(err)
	}
	m1, err := s.AddMessage(ctx, Message{ID: "m1", ConversationID: conv.ID, Role: "user", Text: "hello", CreatedAt: time.Now()})
	if err != nil {
		t.Fatal(err)
	}
	now := time.UnixMilli(time.Now().UnixMilli())
	sum := Summary{ID: "s1", ConversationID: conv.ID, ThroughID: m1.ID, Covers: 1, FromAt: now, ThroughAt: now,
		Status: SummaryStreaming, RunID: "r1", CreatedAt: now}
	if err := s.CreateSummary(ctx, sum); err != nil {
		t.Fatal(err)
	}
	if err := s.CreateSummary(ctx, Summary{ID: "s0", ConversationID: "nope", CreatedAt: now}); !errors.Is(err, ErrNotFound) {
		t.Fatalf("a summary of no conversation: %v", err)
	}
	sum.Text, sum.Status, sum.Tokens, sum.Model, sum.InputTokens, sum.OutputTokens, sum.CacheReadTokens =
		"The user said hello.", SummaryDone, 5, "fake", 100, 5, 40
	if err := s.FinishSummary(ctx, sum); err != nil {
		t.Fatal(err)
	}
	got, err := s.GetSummary(ctx, conv.ID, "s1")
	if err != nil || got != sum {
		t.Fatalf("got %+v %v, want %+v", got, err, sum)
	}
	if l, _ := s.SummariesThrough(ctx, conv.ID, []string{"m1"}); len(l) != 1 {
		t.Fatalf("through m1: %d", len(l))
	}
	if err := s.SetSummaryStatus(ctx, "s1", SummaryUndone); err != nil {
		t.Fatal(err)
	}
	if l, _ := s.SummariesThrough(ctx, conv.ID, []string{"m1"}); len(l) != 0 {
		t.Fatalf("an undone summary is listed: %d", len(l))
	}
	left := sum
	left.ID, left.Status = "s2", SummaryStreaming
	if err := s.CreateSummary(ctx, left); err != nil {
		t.Fatal(err)
	}
	failed, err := s.FailStreamingSummaries(ctx, "stopped")
	if err != nil || len(failed) != 1 || failed[0].ID != "s2" {
		t.Fatalf("failed %+v %v", failed, err)
	}
	if l, _ := s.Summaries(ctx, conv.ID, SummaryFailed); len(l) != 1 || l[0].Error != "stopped" {
		t.Fatalf("failed summaries %+v", l)
	}
	if err := s.SetMessageTokens(ctx, "o200k_base", map[string]int{"m1": 2}); err != nil {
		t.Fatal(err)
	}
	counts, err := s.MessageTokens(ctx, []string{"m1", "m2"})
	if err != nil || len(counts) != 1 || counts["m1"] != (TokenCount{2, "o200k_base"}) {
		t.Fatalf("counts %v %v", counts, err)
	}
}
