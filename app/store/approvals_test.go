package store

import (
	"context"
	"errors"
	"slices"
	"sync"
	"testing"
)

func mustAddApproval(t *testing.T, s *Store, id, runID, callID string) {
	t.Helper()
	a := Approval{ID: id, RunID: runID, ConversationID: "c", CallID: callID, ToolName: "RUN_SHELL",
		Request: []byte(`{"command":"ls"}`), CreatedAt: at(5)}
	if err := s.AddApproval(context.Background(), a); err != nil {
		t.Fatal(err)
	}
}

func TestApprovalLifecycle(t *testing.T) {
	s, _ := openTemp(t)
	ctx := context.Background()
	mustCreateConversation(t, s, "c", 1)
	mustCreateRun(t, s, Run{ID: "r", ConversationID: "c", StartedAt: at(1)})
	mustAddApproval(t, s, "a1", "r", "call1")
	mustAddApproval(t, s, "a2", "r", "call2")

	if err := s.AddApproval(ctx, Approval{ID: "a3", RunID: "r", CallID: "call1", ToolName: "x", Request: []byte(`{}`), CreatedAt: at(5)}); err == nil {
		t.Fatal("a second approval for one call was saved")
	}
	if err := s.AddApproval(ctx, Approval{ID: "a4", RunID: "nope", CallID: "c", ToolName: "x", Request: []byte(`{}`), CreatedAt: at(5)}); !errors.Is(err, ErrNotFound) {
		t.Fatalf("approval of a missing run: %v", err)
	}
	pending, err := s.PendingApprovals(ctx)
	if err != nil || !slices.Equal(pluck(func(a Approval) string { return a.ID }, pending), []string{"a1", "a2"}) {
		t.Fatalf("pending = %v, %v", pending, err)
	}

	got, err := s.DecideApproval(ctx, "a1", DecisionApproveAlways, "", at(9), GrantShell, []string{"git", "ls"})
	if err != nil || got.Status != ApprovalApproved || got.Decision != DecisionApproveAlways || !got.DecidedAt.Equal(at(9)) {
		t.Fatalf("decide = %+v, %v", got, err)
	}
	grants, _ := s.Grants(ctx)
	if !slices.Equal(pluck(func(g Grant) string { return g.Base }, grants), []string{"git", "ls"}) {
		t.Fatalf("grants = %+v", grants)
	}
	if _, err := s.DecideApproval(ctx, "a1", DecisionDeny, "no", at(10), GrantShell, nil); !errors.Is(err, ErrDecided) {
		t.Fatalf("second decision: %v", err)
	}
	if ok, err := s.CancelApproval(ctx, "a2", at(11)); !ok || err != nil {
		t.Fatalf("cancel = %v, %v", ok, err)
	}
	if got, err := s.DecideApproval(ctx, "a2", DecisionApprove, "", at(12), GrantShell, nil); !errors.Is(err, ErrDecided) || got.Status != ApprovalCancelled {
		t.Fatalf("decision after cancel: %+v, %v", got, err)
	}
	if _, err := s.DecideApproval(ctx, "missing", DecisionApprove, "", at(12), GrantShell, nil); !errors.Is(err, ErrNotFound) {
		t.Fatalf("unknown approval: %v", err)
	}
	if _, err := s.DecideApproval(ctx, "a1", "maybe", "", at(12), GrantShell, nil); err == nil {
		t.Fatal("an unknown decision was taken")
	}
	// The same text granted as an MCP tool is another grant, listed apart.
	mustAddApproval(t, s, "a5", "r", "call5")
	if _, err := s.DecideApproval(ctx, "a5", DecisionApproveAlways, "", at(13), GrantMCP, []string{"git", "fs.read"}); err != nil {
		t.Fatal(err)
	}
	all, _ := s.Grants(ctx)
	kinds := pluck(func(g Grant) string { return g.Kind + ":" + g.Base }, all)
	if !slices.Equal(kinds, []string{"mcp:fs.read", "mcp:git", "shell:git", "shell:ls"}) {
		t.Fatalf("grants = %v", kinds)
	}
	if err := s.DeleteGrant(ctx, grants[0].ID); err != nil {
		t.Fatal(err)
	}
	if err := s.DeleteGrant(ctx, grants[0].ID); !errors.Is(err, ErrNotFound) {
		t.Fatalf("deleting twice: %v", err)
	}
	if a, err := s.ApprovalOf(ctx, "r", "call1"); err != nil || a.ID != "a1" {
		t.Fatalf("approval of call1 = %+v, %v", a, err)
	}
}

func TestConcurrentDecisionsOneWins(t *testing.T) {
	s, _ := openTemp(t)
	ctx := context.Background()
	mustCreateConversation(t, s, "c", 1)
	mustCreateRun(t, s, Run{ID: "r", ConversationID: "c", StartedAt: at(1)})
	mustAddApproval(t, s, "a", "r", "call")
	decisions := []string{DecisionApprove, DecisionDeny, DecisionApproveAlways, DecisionApprove, DecisionDeny, DecisionApprove}
	errs := make([]error, len(decisions))
	var wg sync.WaitGroup
	for i, d := range decisions {
		wg.Go(func() { _, errs[i] = s.DecideApproval(ctx, "a", d, "", at(9), GrantShell, []string{"ls"}) })
	}
	wg.Wait()
	won := 0
	for i, err := range errs {
		switch {
		case err == nil:
			won++
		case !errors.Is(err, ErrDecided):
			t.Errorf("decision %d: %v", i, err)
		}
	}
	if won != 1 {
		t.Fatalf("%d decisions won, want exactly 1", won)
	}
}

// A decision no run heard of (the process ended between the decision and the run
// going on) is found again for the paused run it belongs to, only for its newest
// approval; pending approvals of runs that are over are cancelled.
func TestUnheardDecisionsAndOrphans(t *testing.T) {
	s, _ := openTemp(t)
	ctx := context.Background()
	mustCreateConversation(t, s, "c", 1)
	for _, r := range []string{"paused", "paused-pending", "ended", "active"} {
		mustCreateRun(t, s, Run{ID: r, ConversationID: "c", StartedAt: at(1)})
	}
	mustAddApproval(t, s, "a-old", "paused", "call1")
	mustAddApproval(t, s, "a-new", "paused", "call2")
	mustAddApproval(t, s, "b-old", "paused-pending", "call1")
	mustAddApproval(t, s, "b-new", "paused-pending", "call2")
	mustAddApproval(t, s, "e", "ended", "call1")
	mustAddApproval(t, s, "x", "active", "call1")
	for _, id := range []string{"a-old", "a-new", "b-old"} {
		if _, err := s.DecideApproval(ctx, id, DecisionApprove, "", at(6), GrantShell, nil); err != nil {
			t.Fatal(err)
		}
	}
	for _, r := range []string{"paused", "paused-pending"} {
		if err := s.SetRunStatus(ctx, r, RunPaused); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.EndRun(ctx, "ended", RunInterrupted, "crashed", at(7), nil); err != nil {
		t.Fatal(err)
	}
	unheard, err := s.UnheardDecisions(ctx)
	if ids := pluck(func(a Approval) string { return a.ID }, unheard); err != nil || !slices.Equal(ids, []string{"a-new"}) {
		t.Fatalf("unheard = %v, %v", ids, err)
	}
	cancelled, err := s.CancelOrphanedApprovals(ctx, at(8))
	if ids := pluck(func(a Approval) string { return a.ID }, cancelled); err != nil || !slices.Equal(ids, []string{"e"}) {
		t.Fatalf("cancelled = %v, %v", ids, err)
	}
	if cancelled[0].Status != ApprovalCancelled || !cancelled[0].DecidedAt.Equal(at(8)) {
		t.Errorf("cancelled = %+v", cancelled[0])
	}
	pending, _ := s.PendingApprovals(ctx)
	if ids := pluck(func(a Approval) string { return a.ID }, pending); !slices.Equal(ids, []string{"b-new", "x"}) {
		t.Errorf("pending = %v", ids)
	}
}
