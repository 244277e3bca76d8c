package api

import (
	"context"
	"strings"
	"testing"

	"github.com/wispapp/wisp/app/wire"
	"github.com/wispapp/wisp/internal/fault"
)

type fakeUsage struct {
	conversation func(ctx context.Context, id string) (wire.ConversationUsage, error)
	report       func(ctx context.Context, days int) (wire.UsageReport, error)
}

func (f fakeUsage) Conversation(ctx context.Context, id string) (wire.ConversationUsage, error) {
	return f.conversation(ctx, id)
}

func (f fakeUsage) Report(ctx context.Context, days int) (wire.UsageReport, error) {
	return f.report(ctx, days)
}

func TestUsageRoutes(t *testing.T) {
	var asked []int
	s := serveAPI(t, "tok", Options{Usage: fakeUsage{
		conversation: func(_ context.Context, id string) (wire.ConversationUsage, error) {
			if id != "c1" {
				return wire.ConversationUsage{}, fault.NotFound.Errorf("conversation not found")
			}
			return wire.ConversationUsage{ConversationID: id, Usage: wire.NewUsage(10, 2, 4, 1), CostUSD: 0.5, Calls: 1}, nil
		},
		report: func(_ context.Context, days int) (wire.UsageReport, error) {
			asked = append(asked, days)
			return wire.UsageReport{Rows: []wire.UsageRow{}}, nil
		},
	}})
	got := s.call("GET", "/api/conversations/c1/usage", nil, nil)
	if u, _ := got.body["usage"].(map[string]any); got.status != 200 || got.body["costUsd"] != 0.5 || u["cacheReadTokens"] != 4.0 {
		t.Errorf("conversation usage: %d %v", got.status, got.body)
	}
	if got := s.call("GET", "/api/conversations/gone/usage", nil, nil); got.status != 404 || got.body["error"] != "conversation not found" {
		t.Errorf("an unknown conversation: %d %v", got.status, got.body)
	}
	for _, q := range []string{"", "?days=1", "?days=366"} {
		if got := s.call("GET", "/api/usage"+q, nil, nil); got.status != 200 {
			t.Errorf("/api/usage%s: %d %v", q, got.status, got.body)
		}
	}
	if want := []int{30, 1, 366}; len(asked) != 3 || asked[0] != want[0] || asked[1] != want[1] || asked[2] != want[2] {
		t.Errorf("days asked: %v, want %v", asked, want)
	}
	for _, q := range []string{"?days=0", "?days=367", "?days=-1", "?days=x", "?days=1.5", "?days=", "?days=99999999999999999999"} {
		got := s.call("GET", "/api/usage"+q, nil, nil)
		if got.status != 400 || !strings.Contains(str(got.body["error"]), "days must be a whole number from 1 to 366") {
			t.Errorf("/api/usage%s: %d %v", q, got.status, got.body)
		}
	}
	if len(asked) != 3 {
		t.Errorf("a refused request reached the service: %v", asked)
	}
	s.checkGuarded([]route{{"GET", "/api/usage", ""}, {"GET", "/api/conversations/c1/usage", ""}})
}
