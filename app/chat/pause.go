package chat

import (
	"context"
	"errors"
	"fmt"

	"github.com/wispapp/wisp/internal/fault"

	"github.com/wispapp/wisp/app/store"
	"github.com/wispapp/wisp/runtime"
)

// A run pauses when an action waits for the user (runtime.RunPaused): its status is
// paused on disk until the matching run_resumed. If Wisp closes while a run is paused,
// the run stays paused (nothing is logged after the pause) and the next start adopts
// it: it is live again for subscribers, without a goroutine, until the user decides
// (ResumePaused) or stops it (CancelRun), and then it goes on from its log.

func (r *Run) setPaused(p bool) {
	r.mu.Lock()
	r.paused = p
	r.mu.Unlock()
}

func (r *Run) isPaused() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.paused
}

// keepsPause reports whether the run is paused while Wisp shuts down: then its log
// ends at the pause and it stays paused.
func (s *Service) keepsPause(ctx context.Context, run *Run) bool {
	return run.isPaused() && errors.Is(context.Cause(ctx), errShutdown)
}

// observePause follows the run's status through its pauses.
func (s *Service) observePause(run *Run, ev runtime.Event) {
	var status string
	switch ev.Type {
	case runtime.EventRunPaused:
		run.setPaused(true)
		status = StatusPaused
	case runtime.EventRunResumed:
		run.setPaused(false)
		status = StatusActive
	default:
		return
	}
	if err := s.store.SetRunStatus(context.Background(), run.ID, status); err != nil {
		s.log.Warn("cannot save the run's status", "run", run.ID, "status", status, "err", err)
	}
}

// adoptPaused makes a run that was paused when Wisp stopped live again, waiting.
func (s *Service) adoptPaused(ctx context.Context, r store.Run) error {
	items, _, err := s.loadItems(ctx, r.ID)
	if err != nil {
		return err
	}
	run := newRun(r.ConversationID, r.UserMessageID, func(error) {})
	run.ID, run.StartedAt, run.items, run.paused, run.adopted = r.ID, r.StartedAt, items, true, true
	if n := len(items); n > 0 {
		run.seq = items[n-1].Seq
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if r.ConversationID != "" {
		s.active[r.ConversationID] = append(s.active[r.ConversationID], run)
	}
	s.byID[run.ID] = run
	return nil
}

// ResumePaused goes on with a run adopted after a restart once its pause was decided.
// It is not found when no adopted run has that id (a live run's action is woken by
// whoever decided, and goes on by itself).
func (s *Service) ResumePaused(runID string) error {
	return s.resumeAdopted(runID, nil)
}

// StopPaused stops a run adopted after a restart whose approval was cancelled
// before it (a stop the previous process did not finish): it goes on with a stopped
// context and ends interrupted. Unlike CancelRun it does not wait for the end.
func (s *Service) StopPaused(runID string) error {
	return s.resumeAdopted(runID, errStopped)
}

// resumeAdopted claims an adopted run and runs it from its log; a cause cancels it
// at once (a stop: the paused action sees its context done).
func (s *Service) resumeAdopted(runID string, cause error) error {
	s.mu.Lock()
	run := s.byID[runID]
	if run == nil || !run.adopted || s.stopped {
		s.mu.Unlock()
		return fault.NotFound.Errorf("no paused run %s is waiting here", runID)
	}
	run.adopted = false
	runCtx, cancel := context.WithCancelCause(s.base)
	run.cancel = cancel
	s.runs.Add(1)
	s.mu.Unlock()
	if cause != nil {
		cancel(cause)
	}
	in, log, err := s.resumeInput(context.Background(), run)
	if err != nil {
		s.log.Error("cannot resume a paused run", "run", runID, "err", err)
		log = nil // the turn fails with ErrNoPause and the run ends failed
	}
	if log == nil {
		log = []runtime.Event{}
	}
	go s.execute(runCtx, run, in, log)
	return nil
}

// resumeInput rebuilds what a paused run started from: the branch above its user
// message (wherever the branch shown is now), the message, and its log so far.
func (s *Service) resumeInput(ctx context.Context, run *Run) (runtime.Input, []runtime.Event, error) {
	in := runtime.Input{ConversationID: run.ConversationID, RunID: run.ID}
	msg, err := s.store.Message(ctx, run.ConversationID, run.UserMessageID)
	if err != nil {
		return in, nil, fmt.Errorf("the run's message %s: %w", run.UserMessageID, err)
	}
	in.Text = msg.Text // the history is assembled as the run goes on (fitTurn)
	run.mu.Lock()
	log := make([]runtime.Event, 0, len(run.items))
	for _, it := range run.items {
		log = append(log, it.Event)
	}
	run.mu.Unlock()
	return in, log, nil
}
