package approval

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/wispapp/wisp/app/store"
	"github.com/wispapp/wisp/app/store/storetest"
	"github.com/wispapp/wisp/app/wire"
)

// published records the frames the service sends.
type published struct {
	mu     sync.Mutex
	frames []wire.Frame
}

func (p *published) Publish(f wire.Frame) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.frames = append(p.frames, f)
}

// HandOver, at start: the decision a paused run never heard of goes to OnDecided
// (once, for the approval the run waits on), and a pending approval whose run is over
// is cancelled and said so; a run still waiting for the user is left waiting.
func TestHandOver(t *testing.T) {
	ctx, now := context.Background(), time.Now()
	st := storetest.Open(t, "c", "decided", "waiting", "over")
	for _, run := range []string{"decided", "waiting", "over"} {
		if err := st.AddApproval(ctx, store.Approval{ID: "ap-" + run, RunID: run, ConversationID: "c", CallID: "call",
			ToolName: "RUN_SHELL", Request: []byte(`{"command":"ls"}`), CreatedAt: now}); err != nil {
			t.Fatal(err)
		}
	}
	for _, run := range []string{"decided", "waiting"} {
		if err := st.SetRunStatus(ctx, run, store.RunPaused); err != nil {
			t.Fatal(err)
		}
	}
	if err := st.EndRun(ctx, "over", store.RunInterrupted, "crashed", now, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := st.DecideApproval(ctx, "ap-decided", store.DecisionDeny, "not now", now, store.GrantShell, nil); err != nil {
		t.Fatal(err)
	}
	var handed []wire.Approval
	events := &published{}
	s := New(Options{Store: st, Events: events, OnDecided: func(a wire.Approval) { handed = append(handed, a) }})
	if err := s.HandOver(ctx); err != nil {
		t.Fatal(err)
	}
	if len(handed) != 1 || handed[0].ID != "ap-decided" || handed[0].Status != "denied" || handed[0].Note != "not now" {
		t.Fatalf("handed over %+v", handed)
	}
	if len(events.frames) != 1 {
		t.Fatalf("frames %+v", events.frames)
	}
	if f, ok := events.frames[0].(wire.ApprovalChanged); !ok || f.Approval.ID != "ap-over" || f.Approval.Status != "cancelled" {
		t.Errorf("frame %+v", events.frames[0])
	}
	pending, err := s.Pending(ctx)
	if err != nil || len(pending) != 1 || pending[0].ID != "ap-waiting" {
		t.Errorf("pending %+v, %v", pending, err)
	}
	// A second start has nothing more to cancel, and hands the decision on again (its
	// run is still paused until it goes on).
	handed = nil
	if err := s.HandOver(ctx); err != nil || len(handed) != 1 || len(events.frames) != 1 {
		t.Errorf("again: %v, handed %d, frames %d", err, len(handed), len(events.frames))
	}
}
