package chat

import (
	"context"
	"fmt"
	"time"

	"github.com/wispapp/wisp/app/store"
	"github.com/wispapp/wisp/app/wire"
	"github.com/wispapp/wisp/internal/ids"
	"github.com/wispapp/wisp/runtime"
	"github.com/wispapp/wisp/runtime/reply"
)

// recoverReason is why a run found active at start-up ended.
const recoverReason = "Wisp stopped before the reply finished"

// recover closes out the runs a previous process left active (it crashed or was
// killed): each gets a run_interrupted event and its reply so far is saved, so nothing
// the agent said is lost.
func (s *Service) recover(ctx context.Context) error {
	runs, err := s.store.ActiveRuns(ctx)
	if err != nil {
		return fmt.Errorf("find unfinished runs: %w", err)
	}
	for _, r := range runs {
		if r.Status == store.RunPaused {
			if err := s.adoptPaused(ctx, r); err != nil {
				return fmt.Errorf("adopt paused run %s: %w", r.ID, err)
			}
			s.log.Info("a run waits for the user's decision", "run", r.ID, "conversation", r.ConversationID)
			continue
		}
		if err := s.recoverRun(ctx, r); err != nil {
			return fmt.Errorf("close unfinished run %s: %w", r.ID, err)
		}
		s.log.Info("closed an unfinished run", "run", r.ID, "conversation", r.ConversationID)
	}
	return nil
}

func (s *Service) recoverRun(ctx context.Context, r store.Run) error {
	items, rep, err := s.loadItems(ctx, r.ID)
	if err != nil {
		return err
	}
	var last int64
	if n := len(items); n > 0 {
		last = items[n-1].Seq
	}
	events := 0 // a row of merged deltas stands for each of them
	for _, it := range items {
		events += max(1, len(it.Cuts))
	}
	now := time.Now()
	if n := len(items); n > 0 && items[n-1].Final() {
		// The end is on disk; only the bookkeeping after it was lost.
		status, why := endOf(items[n-1].Event)
		return s.store.EndRun(ctx, r.ID, status, why, now, s.recoveredReply(r, rep, status, why, now))
	}
	// Seed 001: the stream is resynced (a client reloads what it shows from the
	// snapshot), then the run ends interrupted.
	resync := runtime.Event{Type: runtime.EventStreamResync, Data: runtime.StreamResync{
		Reason: runtime.ResyncCrashRecovery, FromSequence: last, MessageCount: events}}
	ev := runtime.Event{Type: runtime.EventInterrupted, Data: runtime.Interrupted{Reason: recoverReason}}
	if err := s.store.AppendRunEvents(ctx, []store.RunEvent{
		{RunID: r.ID, Seq: last + 1, Type: string(resync.Type), Data: encodeEvent(resync), Time: now},
		{RunID: r.ID, Seq: last + 2, Type: string(ev.Type), Data: encodeEvent(ev), Time: now},
	}); err != nil {
		return err
	}
	if err := s.store.EndRun(ctx, r.ID, StatusInterrupted, recoverReason, now, s.recoveredReply(r, rep, StatusInterrupted, recoverReason, now)); err != nil {
		return err
	}
	s.closeCards(r, items)
	return nil
}

// closeCards ends the cards of a run a crash cut, as a live run's interruption does:
// each call it started and did not end is shown interrupted (not "executing" or
// "waiting" for good), and the conversation says why.
func (s *Service) closeCards(r store.Run, items []Item) {
	if r.ConversationID == "" {
		return // a stateless run (the /v1 routes) shows no cards
	}
	run := newRun(r.ConversationID, r.UserMessageID, func(error) {})
	run.ID, run.StartedAt = r.ID, r.StartedAt
	rec := newDisplayRecorder(s, run)
	for _, it := range items {
		switch e := it.Event.Data.(type) {
		case runtime.ToolStart:
			rec.calls[e.CallID] = e
		case runtime.ToolEnd:
			delete(rec.calls, e.CallID)
		}
	}
	rec.finish(StatusInterrupted, recoverReason)
}

func (s *Service) recoveredReply(r store.Run, rep *reply.Reply, status, why string, at time.Time) *store.Message {
	if r.ConversationID == "" {
		return nil
	}
	return &store.Message{
		ID: ids.New(), ConversationID: r.ConversationID, Role: "assistant", Text: rep.FullText(),
		Source: "chat", RunID: r.ID, CallbackHistory: rep.History(), Segments: wire.JSON(rep.Segments()),
		Metadata: replyMeta(status, why), CreatedAt: at,
	}
}

// endOf maps a final event to the run's status and error.
func endOf(ev runtime.Event) (status, why string) {
	switch d := ev.Data.(type) {
	case runtime.Error:
		return StatusFailed, d.Message
	case runtime.Interrupted:
		return StatusInterrupted, d.Reason
	}
	return StatusEnded, ""
}
