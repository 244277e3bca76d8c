package api

import (
	"context"
	"testing"

	"github.com/wispapp/wisp/app/approval"
	"github.com/wispapp/wisp/app/wire"
	"github.com/wispapp/wisp/internal/fault"
)

func TestDecideApproval(t *testing.T) {
	var got approval.Decision
	s := serveAPI(t, "tok", Options{Approvals: fakeApprovals{
		decide: func(_ context.Context, id string, d approval.Decision) (wire.Approval, error) {
			got = d
			if id == "late" {
				deny := wire.DecisionDeny
				return wire.Approval{ID: id, Decision: &deny}, fault.Conflict.Errorf("already decided")
			}
			decision := wire.ApprovalDecision(d.Decision)
			return wire.Approval{ID: id, Decision: &decision}, nil
		},
		revoke: func(context.Context, string) error { return fault.NotFound.Errorf("no such grant") },
	}})
	ok := s.call("POST", "/api/approvals/a1", map[string]any{"decision": "approve_always", "note": "fine", "bases": []string{"git"}}, nil)
	if ok.status != 200 || ok.body["approval"].(map[string]any)["decision"] != "approve_always" {
		t.Fatalf("decide: %d %v", ok.status, ok.body)
	}
	if got.Note != "fine" || len(got.Bases) != 1 || got.Bases[0] != "git" {
		t.Fatalf("the service got %+v", got)
	}
	// A decision that lost names the one that won.
	late := s.call("POST", "/api/approvals/late", map[string]any{"decision": "approve"}, nil)
	if late.status != 409 || late.body["decision"] != "deny" || late.body["error"] != "already decided" {
		t.Fatalf("late: %d %v", late.status, late.body)
	}
	if got := s.call("DELETE", "/api/grants/g1", nil, nil); got.status != 404 {
		t.Fatalf("revoke: %d", got.status)
	}
	s.checkGuarded([]route{{"GET", "/api/approvals", ""}, {"POST", "/api/approvals/a1", `{"decision":"approve"}`},
		{"GET", "/api/grants", ""}, {"DELETE", "/api/grants/g1", ""}})
}
