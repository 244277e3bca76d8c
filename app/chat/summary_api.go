package chat

import (
	"context"
	"errors"
	"time"

	"github.com/wispapp/wisp/internal/fault"

	"github.com/wispapp/wisp/app/store"
	"github.com/wispapp/wisp/app/wire"
	"github.com/wispapp/wisp/runtime"
)

// The context meter and what the user does with summaries: regenerate, undo.

var errSummaryNotFound = fault.NotFound.Errorf("summary not found in this conversation")

// ContextInfo is what the next turn of the branch shown would send.
func (s *Service) ContextInfo(ctx context.Context, convID string) (wire.ContextInfo, error) {
	conv, err := s.store.Conversation(ctx, convID)
	if err != nil {
		if errors.Is(err, store.ErrNotFound) {
			return wire.ContextInfo{}, errConversationNotFound
		}
		return wire.ContextInfo{}, err
	}
	b := s.budgetNow(ctx)
	w, err := s.walk(ctx, convID, conv.ActiveLeafID, b, walkFactor*b.budget)
	if err != nil {
		return wire.ContextInfo{}, err
	}
	// The attachments as the next turn would count them before reading the images.
	f := &turnFit{s: s}
	if anyWithImages(w.msgs) {
		f.vision = s.vision(ctx)
	}
	files := f.estimateFiles(ctx, b, w.msgs)
	info := wire.ContextInfo{ConversationID: convID, Model: b.model, Window: b.window, WindowSource: b.source,
		Budget: b.budget, Used: w.used(b, s.systemPrompt()) + files, SummaryAt: b.threshold()}
	if w.prev != nil {
		info.SummaryID = w.prev.ID
	}
	return info, nil
}

// UndoSummary takes a summary out of the model's context: the next turn reads the
// messages it stood for again (and summarises anew if they are over the threshold).
func (s *Service) UndoSummary(ctx context.Context, convID, id string) (wire.Summary, error) {
	m, err := s.store.GetSummary(ctx, convID, id)
	if err != nil {
		return wire.Summary{}, summaryErr(err)
	}
	if m.Status == store.SummaryStreaming {
		return wire.Summary{}, fault.Conflict.Errorf("the summary is still being written")
	}
	if err := s.store.SetSummaryStatus(ctx, id, store.SummaryUndone); err != nil {
		return wire.Summary{}, summaryErr(err)
	}
	m.Status = store.SummaryUndone
	s.publishSummary(m)
	return WireSummary(m), nil
}

// RegenerateSummary makes a summary of the same messages again, in a run of its own
// (its stream is read like any run's); the old one is undone once the new one is
// done. It answers the run and the new summary as it starts.
func (s *Service) RegenerateSummary(ctx context.Context, convID, id string) (string, wire.Summary, error) {
	old, err := s.store.GetSummary(ctx, convID, id)
	if err != nil {
		return "", wire.Summary{}, summaryErr(err)
	}
	if old.Status == store.SummaryStreaming {
		return "", wire.Summary{}, fault.Conflict.Errorf("the summary is still being written")
	}
	if ok, why := s.opts.CanRespond(); !ok {
		return "", wire.Summary{}, fault.Unavailable.Errorf("%s", why)
	}
	b := s.budgetNow(ctx)
	w, err := s.walkSkipping(ctx, convID, old.ThroughID, b, walkFactor*b.budget, old.ID)
	if err != nil {
		return "", wire.Summary{}, err
	}
	if len(w.msgs) == 0 {
		return "", wire.Summary{}, fault.Invalid.Errorf("the messages the summary stood for are gone")
	}
	runCtx, cancel := context.WithCancelCause(s.base)
	run := newRun(convID, old.ThroughID, cancel)
	s.mu.Lock()
	if s.stopped {
		s.mu.Unlock()
		cancel(nil)
		return "", wire.Summary{}, fault.Unavailable.Errorf("Wisp is shutting down")
	}
	s.byID[run.ID] = run
	s.runs.Add(1)
	s.mu.Unlock()
	if err := s.store.CreateRun(ctx, store.Run{ID: run.ID, ConversationID: convID, UserMessageID: old.ThroughID,
		Status: StatusActive, StartedAt: run.StartedAt}); err != nil {
		s.dropRun(run)
		s.runs.Done()
		cancel(nil)
		return "", wire.Summary{}, err
	}
	started := make(chan store.Summary, 1)
	go s.summaryRun(runCtx, run, b, w, old, started)
	select {
	case sum := <-started:
		return run.ID, WireSummary(sum), nil
	case <-run.over:
		// A summary quick enough to end before this reads has started too: the
		// select picks either ready case at random, so look once more.
		select {
		case sum := <-started:
			return run.ID, WireSummary(sum), nil
		default:
			return run.ID, wire.Summary{}, fault.Unavailable.Errorf("the summary could not start")
		}
	}
}

// summaryRun is a run that only makes a summary.
func (s *Service) summaryRun(ctx context.Context, run *Run, b budget, w walked, old store.Summary, started chan<- store.Summary) {
	defer s.runs.Done()
	defer close(run.over)
	defer run.Cancel(errRunOver)
	emit := func(ev runtime.Event) {
		if st, ok := ev.Data.(runtime.SummaryStart); ok {
			started <- store.Summary{ID: st.Summary.ID, ConversationID: st.Summary.ConversationID,
				ThroughID: st.Summary.ThroughID, Covers: st.Summary.Covers, Status: store.SummaryStreaming,
				RunID: run.ID, CreatedAt: time.Now(), FromAt: parseISO(st.Summary.FromAt), ThroughAt: parseISO(st.Summary.ThroughAt)}
		}
		s.append(run, ev, runtime.Fold{Segment: -1}, nil)
	}
	sum, err := s.summarise(ctx, run.ID, emit, b, w.prev, w.msgs)
	if err == nil && old.Status != store.SummaryUndone {
		if uerr := s.store.SetSummaryStatus(context.WithoutCancel(ctx), old.ID, store.SummaryUndone); uerr == nil {
			old.Status = store.SummaryUndone
			s.publishSummary(old)
		}
	}
	status, errMsg := StatusEnded, ""
	final := runtime.Event{Type: runtime.EventOutput, Data: runtime.Output{}}
	switch {
	case err == nil:
	case ctx.Err() != nil:
		status, errMsg = StatusInterrupted, context.Cause(ctx).Error()
		final = runtime.Event{Type: runtime.EventInterrupted, Data: runtime.Interrupted{Reason: errMsg}}
	default:
		status, errMsg = StatusFailed, err.Error()
		if sum != nil && sum.Error != "" {
			errMsg = sum.Error
		}
		final = runtime.Event{Type: runtime.EventError, Data: runtime.Error{Message: errMsg}}
	}
	s.append(run, final, runtime.Fold{Segment: -1}, func() error {
		err := s.store.EndRun(context.Background(), run.ID, status, errMsg, time.Now(), nil)
		run.mu.Lock()
		run.outcome = Outcome{Status: status, Error: errMsg}
		run.mu.Unlock()
		s.dropRun(run)
		return err
	})
	s.compactRun(context.WithoutCancel(ctx), run.ID)
}

// dropRun forgets a summary run.
func (s *Service) dropRun(run *Run) {
	s.mu.Lock()
	delete(s.byID, run.ID)
	s.mu.Unlock()
}

func summaryErr(err error) error {
	if errors.Is(err, store.ErrNotFound) {
		return errSummaryNotFound
	}
	return err
}

func parseISO(v string) time.Time {
	t, _ := time.Parse(time.RFC3339Nano, v)
	return t
}
