package store

import (
	"context"
	"reflect"
	"strings"
	"testing"
)

func mustAddUsage(t *testing.T, s *Store, u UsageRecord) {
	t.Helper()
	if u.At.IsZero() {
		u.At = at(1000)
	}
	if u.Provider == "" {
		u.Provider = "openai"
	}
	if u.Kind == "" {
		u.Kind = "chat"
	}
	if err := s.AddUsage(context.Background(), u); err != nil {
		t.Fatal(err)
	}
}

func cost(v float64) *float64 { return &v }

func TestUsageTotals(t *testing.T) {
	s, _ := openTemp(t)
	ctx := context.Background()
	mustCreateConversation(t, s, "c1", 1)
	mustCreateConversation(t, s, "c2", 1)
	mustAddUsage(t, s, UsageRecord{ID: "u1", Day: "2026-11-27", Model: "gpt-4o", ConversationID: "c1", RunID: "r1", MessageID: "m1",
		Tokens: Tokens{Input: 100, Output: 10, CacheRead: 40}, CostUSD: cost(0.5)})
	mustAddUsage(t, s, UsageRecord{ID: "u2", Day: "2026-11-28", Model: "gpt-4o", ConversationID: "c1", Kind: "title",
		Tokens: Tokens{Input: 20, Output: 3}, CostUSD: cost(0.25)})
	mustAddUsage(t, s, UsageRecord{ID: "u3", Day: "2026-11-28", Model: "llama3.2", ConversationID: "c1", MessageID: "m2",
		Tokens: Tokens{Input: 7, Output: 1, CacheWrite: 2}})
	mustAddUsage(t, s, UsageRecord{ID: "u4", Day: "2026-11-28", Model: "claude-haiku-4-5", Kind: "v1",
		Tokens: Tokens{Input: 5, Output: 5}, CostUSD: cost(1)})
	mustAddUsage(t, s, UsageRecord{ID: "u5", Day: "2026-11-20", Model: "gpt-4o", ConversationID: "c2",
		Tokens: Tokens{Input: 1, Output: 1}, CostUSD: cost(2)})

	got, err := s.ConversationUsage(ctx, "c1")
	want := UsageTotals{Tokens: Tokens{Input: 127, Output: 14, CacheRead: 40, CacheWrite: 2}, CostUSD: 0.75, Unpriced: 1, Calls: 3}
	if err != nil || got != want {
		t.Errorf("conversation c1: %+v, %v; want %+v", got, err, want)
	}
	if got, err := s.ConversationUsage(ctx, "none"); err != nil || got != (UsageTotals{}) {
		t.Errorf("no usage: %+v, %v", got, err)
	}

	days, err := s.UsageSince(ctx, "2026-11-27")
	wantDays := []DayUsage{
		{"2026-11-28", "claude-haiku-4-5", UsageTotals{Tokens: Tokens{Input: 5, Output: 5}, CostUSD: 1, Calls: 1}},
		{"2026-11-28", "gpt-4o", UsageTotals{Tokens: Tokens{Input: 20, Output: 3}, CostUSD: 0.25, Calls: 1}},
		{"2026-11-28", "llama3.2", UsageTotals{Tokens: Tokens{Input: 7, Output: 1, CacheWrite: 2}, Unpriced: 1, Calls: 1}},
		{"2026-11-27", "gpt-4o", UsageTotals{Tokens: Tokens{Input: 100, Output: 10, CacheRead: 40}, CostUSD: 0.5, Calls: 1}},
	}
	if err != nil || !reflect.DeepEqual(days, wantDays) {
		t.Errorf("by day: %+v, %v\nwant %+v", days, err, wantDays)
	}

	msgs, err := s.MessagesUsage(ctx, []string{"m1", "m2", "m9"})
	if err != nil || len(msgs) != 2 {
		t.Fatalf("messages: %+v, %v", msgs, err)
	}
	if m := msgs["m1"]; m.Model != "gpt-4o" || m.Tokens != (Tokens{Input: 100, Output: 10, CacheRead: 40}) || m.CostUSD == nil || *m.CostUSD != 0.5 {
		t.Errorf("m1: %+v", m)
	}
	if m := msgs["m2"]; m.Model != "llama3.2" || m.CostUSD != nil {
		t.Errorf("m2 has no price: %+v", m)
	}
	if got, err := s.MessagesUsage(ctx, nil); err != nil || len(got) != 0 {
		t.Errorf("no ids: %v, %v", got, err)
	}
}

// A reply recorded twice (a run paused when Wisp closed, resumed after the start)
// sums its records, under the newest one's model; one record without a price leaves
// the message without a cost.
func TestMessageUsageSumsItsRecords(t *testing.T) {
	s, _ := openTemp(t)
	mustCreateConversation(t, s, "c1", 1)
	mustAddUsage(t, s, UsageRecord{ID: "u1", At: at(1000), Day: "2026-11-28", Model: "gpt-4o", ConversationID: "c1", MessageID: "m1",
		Tokens: Tokens{Input: 10, Output: 1}, CostUSD: cost(0.5)})
	mustAddUsage(t, s, UsageRecord{ID: "u2", At: at(2000), Day: "2026-11-28", Model: "gpt-4.1", ConversationID: "c1", MessageID: "m1",
		Tokens: Tokens{Input: 20, Output: 2}, CostUSD: cost(0.25)})
	msgs, err := s.MessagesUsage(context.Background(), []string{"m1"})
	if m := msgs["m1"]; err != nil || m.Model != "gpt-4.1" || m.Tokens != (Tokens{Input: 30, Output: 3}) || m.CostUSD == nil || *m.CostUSD != 0.75 {
		t.Errorf("m1: %+v, %v", m, err)
	}
	mustAddUsage(t, s, UsageRecord{ID: "u3", At: at(3000), Day: "2026-11-28", Model: "local", ConversationID: "c1", MessageID: "m1"})
	msgs, _ = s.MessagesUsage(context.Background(), []string{"m1"})
	if m := msgs["m1"]; m.Model != "local" || m.CostUSD != nil {
		t.Errorf("m1 with an unpriced record: %+v", m)
	}
}

// A deleted conversation's usage stays in the totals, without its id; a record for a
// conversation deleted before it was saved is kept the same way.
func TestUsageOutlivesItsConversation(t *testing.T) {
	s, _ := openTemp(t)
	ctx := context.Background()
	mustCreateConversation(t, s, "c1", 1)
	mustAddUsage(t, s, UsageRecord{ID: "u1", Day: "2026-11-28", Model: "gpt-4o", ConversationID: "c1", MessageID: "m1",
		Tokens: Tokens{Input: 10, Output: 1}, CostUSD: cost(0.5)})
	if err := s.DeleteConversation(ctx, "c1"); err != nil {
		t.Fatal(err)
	}
	mustAddUsage(t, s, UsageRecord{ID: "u2", Day: "2026-11-28", Model: "gpt-4o", ConversationID: "c1", Kind: "title",
		Tokens: Tokens{Input: 5, Output: 1}, CostUSD: cost(0.25)})
	if got, _ := s.ConversationUsage(ctx, "c1"); got.Calls != 0 {
		t.Errorf("the deleted conversation still has usage: %+v", got)
	}
	days, err := s.UsageSince(ctx, "2026-11-01")
	if err != nil || len(days) != 1 || days[0].Calls != 2 || days[0].CostUSD != 0.75 {
		t.Errorf("by day: %+v, %v", days, err)
	}
	if ids := columnOf(t, s, "SELECT COALESCE(conversation_id, '-') FROM usage ORDER BY n"); !reflect.DeepEqual(ids, []string{"-", "-"}) {
		t.Errorf("conversation ids: %v", ids)
	}
}

// The schema refuses what no provider can mean: negative counts and costs, unknown kinds.
func TestAddUsageRefuses(t *testing.T) {
	s, _ := openTemp(t)
	for _, u := range []UsageRecord{
		{ID: "a", At: at(1), Day: "d", Model: "m", Provider: "p", Kind: "chat", Tokens: Tokens{Input: -1}},
		{ID: "b", At: at(1), Day: "d", Model: "m", Provider: "p", Kind: "chat", Tokens: Tokens{CacheWrite: -1}},
		{ID: "c", At: at(1), Day: "d", Model: "m", Provider: "p", Kind: "chat", CostUSD: cost(-1)},
		{ID: "d", At: at(1), Day: "d", Model: "m", Provider: "p", Kind: "nope"},
		{ID: "e", Day: "d", Model: "m", Provider: "p", Kind: "chat"},
	} {
		if err := s.AddUsage(context.Background(), u); err == nil {
			t.Errorf("%s: saved %+v", u.ID, u)
		}
	}
}

// A run recorded before a restart, under the reply id it had then, is found under the
// reply it ends with; other runs' records and other kinds keep theirs.
func TestUsageOfARunTakesItsReply(t *testing.T) {
	s, _ := openTemp(t)
	ctx := context.Background()
	mustCreateConversation(t, s, "c1", 1)
	mustAddUsage(t, s, UsageRecord{ID: "u1", Day: "d", Model: "m", ConversationID: "c1", RunID: "r1", MessageID: "before-restart",
		Tokens: Tokens{Input: 10}})
	mustAddUsage(t, s, UsageRecord{ID: "u2", Day: "d", Model: "m", ConversationID: "c1", RunID: "r2", MessageID: "m2", Tokens: Tokens{Input: 1}})
	mustAddUsage(t, s, UsageRecord{ID: "u3", Day: "d", Model: "m", ConversationID: "c1", RunID: "r1", Kind: "summary", Tokens: Tokens{Input: 2}})
	mustAddUsage(t, s, UsageRecord{ID: "u4", Day: "d", Model: "m", ConversationID: "c1", RunID: "r1", MessageID: "m1", Tokens: Tokens{Input: 20}})
	got, err := s.MessagesUsage(ctx, []string{"m1", "m2", "before-restart"})
	if err != nil || len(got) != 2 || got["m1"].Tokens.Input != 30 || got["m2"].Tokens.Input != 1 {
		t.Errorf("usage by message: %+v, %v", got, err)
	}
	if ids := columnOf(t, s, "SELECT COALESCE(message_id, '-') FROM usage ORDER BY n"); !reflect.DeepEqual(ids, []string{"m1", "m2", "-", "m1"}) {
		t.Errorf("message ids: %v", ids)
	}
	var plan string
	if err := s.db.QueryRow("EXPLAIN QUERY PLAN UPDATE usage SET message_id = 'x' WHERE run_id = 'r1' AND kind = 'chat'").Scan(new(int), new(int), new(int), &plan); err != nil || !strings.Contains(plan, "usage_run") {
		t.Errorf("the update does not use the run index: %q, %v", plan, err)
	}
}
