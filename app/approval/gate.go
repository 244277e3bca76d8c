package approval

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/wispapp/wisp/runtime"
)

// gate returns nil once call may go on: covered (a grant covers it) or the user said
// yes. Otherwise the run pauses (tool status waiting, run_paused) until someone
// decides, and the call ends with the reason the model is given: declined (with the
// user's note), or stopped. A run stopped by Wisp's shutdown leaves the approval
// pending: the run resumes after the next start, and this asks nothing again. A
// decision that comes as the run is being stopped releases nothing: the call never
// starts after a stop.
func (s *Service) gate(ctx context.Context, call runtime.Call, ask Ask, covered bool) error {
	if covered {
		return nil
	}
	// The request is quick and must happen even when the run is being stopped: a
	// stop then finds the approval to cancel.
	ap, asked, err := s.request(context.WithoutCancel(ctx), ask)
	if err != nil {
		return err
	}
	if ap.Status == "pending" {
		if asked {
			// (A run resumed after a restart paused before: its log says so already.)
			body, _ := json.Marshal(ap)
			call.Report(runtime.Event{Type: runtime.EventToolStatus, Data: runtime.ToolStatus{Status: runtime.ToolWaiting}})
			call.Report(runtime.Event{Type: runtime.EventRunPaused, Data: runtime.RunPaused{
				Reason: "waiting for the user to allow " + ask.Detail.Noun(), ApprovalID: ap.ID, Approval: body}})
		}
		decided, err := s.Wait(ctx, ap.ID)
		if err == nil && ctx.Err() != nil {
			err = ctx.Err() // decided as the run was stopped: the stop wins
		}
		if err != nil {
			if !errors.Is(context.Cause(ctx), runtime.ErrShutdown) {
				// Stopped by the user: nobody will decide any more.
				s.Cancel(context.WithoutCancel(ctx), ap.ID)
				call.Report(runtime.Event{Type: runtime.EventToolStatus, Data: runtime.ToolStatus{Status: runtime.ToolCancelled}})
			}
			return fmt.Errorf("stopped before the user decided: %w", context.Cause(ctx))
		}
		ap = decided
	}
	if ap.Status != "approved" && ap.Status != "denied" {
		// Cancelled: the run was stopped while it waited (before a restart, when a
		// run resumed after it finds its approval so).
		call.Report(runtime.Event{Type: runtime.EventToolStatus, Data: runtime.ToolStatus{Status: runtime.ToolCancelled}})
		return fmt.Errorf("stopped before the user decided (the approval was %s)", ap.Status)
	}
	decision := ""
	if ap.Decision != nil {
		decision = string(*ap.Decision)
	}
	call.Report(runtime.Event{Type: runtime.EventRunResumed, Data: runtime.RunResumed{ApprovalID: ap.ID, Decision: decision}})
	if ap.Status == "approved" {
		return nil
	}
	call.Report(runtime.Event{Type: runtime.EventToolStatus, Data: runtime.ToolStatus{Status: runtime.ToolCancelled}})
	if ap.Note != "" {
		return fmt.Errorf("the user declined %s, and said: %s", ask.Detail.Declined(), ap.Note)
	}
	return fmt.Errorf("the user declined %s", ask.Detail.Declined())
}
