package app

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/wispapp/wisp/app/store"
)

// TestDecidedBeforeACrash: Wisp died between the decision's compare-and-swap and the
// run's run_resumed, so the next start finds the run paused and its approval decided.
// The run goes on by itself: approved, the command runs once; denied, the model is
// told; cancelled (a stop), the run ends interrupted. The card shows how it ended and
// the conversation takes new messages.
func TestDecidedBeforeACrash(t *testing.T) {
	for _, tc := range []struct {
		decision     string // "" cancels, as a stop does
		status, tool string
		model        string // what the model got back, "" when it is not asked again
	}{
		{store.DecisionApprove, "ended", "completed", "Exit code: 0\nOutput:\nhi"},
		{store.DecisionDeny, "ended", "cancelled", "declined"},
		{"", "interrupted", "cancelled", ""},
	} {
		t.Run("decision "+tc.decision, func(t *testing.T) {
			dir := t.TempDir()
			a, conv, paused, _ := pausedShell(t, dir)
			_, snap := a.do("GET", "/api/conversations/"+conv+"/snapshot", nil)
			runID := snap["activeRun"].(map[string]any)["id"].(string)
			approvalID := paused["approvalId"].(string)
			fake := a.fake
			a.Stop()
			decideOnDisk(t, dir, approvalID, tc.decision)
			asked := len(fake.Requests())

			b := startShell(t, dir, fake)
			frames := make(chan []frame, 1)
			go func() { frames <- b.resume(runID, 0) }() // (its stream ends with the run)
			executing := 0
			select {
			case all := <-frames:
				for _, f := range all {
					if f.typ() == "tool_status" && f.str("status") == "executing" {
						executing++
					}
				}
			case <-time.After(30 * time.Second):
				t.Fatalf("the run did not go on after the restart; it is %s", b.runStatus(runID))
			}
			if got := b.runStatus(runID); got != tc.status {
				t.Fatalf("the run ended %q, want %q", got, tc.status)
			}
			if want := map[bool]int{true: 1, false: 0}[tc.decision == store.DecisionApprove]; executing != want {
				t.Errorf("the command ran %d times, want %d", executing, want)
			}
			if tc.model != "" && !strings.Contains(lastToolText(fake), tc.model) {
				t.Errorf("the model got back %q, want %q in it", lastToolText(fake), tc.model)
			}
			if tc.model == "" && len(fake.Requests()) != asked {
				t.Errorf("the model was asked again after a stop")
			}
			if got := toolRowStatus(b, conv); got != tc.tool {
				t.Errorf("the card is %q, want %q", got, tc.tool)
			}
			if code, out := b.do("POST", "/api/approvals/"+approvalID, map[string]any{"decision": "approve"}); code != 409 {
				t.Errorf("a decision after the restart: %d %v", code, out)
			}
			if _, snap := b.do("GET", "/api/conversations/"+conv+"/snapshot", nil); snap["activeRun"] != nil {
				t.Errorf("the conversation still has an active run: %v", snap)
			}
		})
	}
}

// decideOnDisk decides an approval in the database of a stopped Wisp, as a decision
// whose run never heard of it leaves it: "" cancels it.
func decideOnDisk(t *testing.T, dir, id, decision string) {
	t.Helper()
	ctx := context.Background()
	st, err := store.Open(ctx, filepath.Join(dir, "wisp.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if decision == "" {
		_, err = st.CancelApproval(ctx, id, time.Now())
	} else {
		_, err = st.DecideApproval(ctx, id, decision, "", time.Now(), "shell", nil)
	}
	if err != nil {
		t.Fatal(err)
	}
}

// toolRowStatus is the status of the conversation's last tool card.
func toolRowStatus(a *shellApp, conv string) string {
	_, dm := a.do("GET", "/api/conversations/"+conv+"/display-messages", nil)
	status := ""
	for _, m := range dm["displayMessages"].([]any) {
		if m := m.(map[string]any); m["contentType"] == "tool_call" {
			status, _ = m["status"].(string)
		}
	}
	return status
}
