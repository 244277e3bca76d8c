package api

import (
	"context"
	"strings"
	"testing"

	"github.com/wispapp/wisp/app/wire"
	"github.com/wispapp/wisp/internal/fault"
)

type fakeContext struct{}

func (fakeContext) ContextInfo(_ context.Context, id string) (wire.ContextInfo, error) {
	if id != "c1" {
		return wire.ContextInfo{}, fault.NotFound.Errorf("conversation not found")
	}
	return wire.ContextInfo{ConversationID: id, Window: 8192, WindowSource: "default", Budget: 5000, Used: 10, SummaryAt: 4000}, nil
}

func (fakeContext) RegenerateSummary(_ context.Context, _, sid string) (string, wire.Summary, error) {
	if sid != "s1" {
		return "", wire.Summary{}, fault.NotFound.Errorf("summary not found in this conversation")
	}
	return "run-1", wire.Summary{ID: "s2", Status: wire.SummaryStreaming}, nil
}

func (fakeContext) UndoSummary(_ context.Context, _, sid string) (wire.Summary, error) {
	if sid != "s1" {
		return wire.Summary{}, fault.NotFound.Errorf("summary not found in this conversation")
	}
	return wire.Summary{ID: sid, Status: wire.SummaryUndone}, nil
}

// The context routes answer the contract's shapes and statuses, errors as {"error"}.
func TestContextRoutes(t *testing.T) {
	s := serveAPI(t, "", Options{Context: fakeContext{}})
	for _, tc := range []struct {
		method, path string
		status       int
		check        func(map[string]any) bool
	}{
		{"GET", "/api/conversations/c1/context", 200, func(b map[string]any) bool { return b["window"] == 8192.0 && b["windowSource"] == "default" }},
		{"GET", "/api/conversations/nope/context", 404, func(b map[string]any) bool { return strings.Contains(str(b["error"]), "not found") }},
		{"POST", "/api/conversations/c1/summaries/s1/regenerate", 202, func(b map[string]any) bool {
			sum, _ := b["summary"].(map[string]any)
			return b["runId"] == "run-1" && sum["status"] == "streaming"
		}},
		{"POST", "/api/conversations/c1/summaries/zz/regenerate", 404, func(b map[string]any) bool { return str(b["error"]) != "" }},
		{"DELETE", "/api/conversations/c1/summaries/s1", 200, func(b map[string]any) bool {
			sum, _ := b["summary"].(map[string]any)
			return sum["status"] == "undone"
		}},
		{"DELETE", "/api/conversations/c1/summaries/zz", 404, func(b map[string]any) bool { return str(b["error"]) != "" }},
	} {
		got := s.call(tc.method, tc.path, "", nil)
		if got.status != tc.status || !tc.check(got.body) {
			t.Errorf("%s %s: %d %v", tc.method, tc.path, got.status, got.body)
		}
	}
}
