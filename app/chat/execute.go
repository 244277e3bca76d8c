package chat

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/wispapp/wisp/app/store"
	"github.com/wispapp/wisp/app/wire"
	"github.com/wispapp/wisp/runtime"
)

// execute runs the agent for one run and ends it: final event, status and reply
// are written before any subscriber sees the end. With resume set it goes on with
// a run that paused before a restart (runtime.Agent.Resume) instead of a new turn.
func (s *Service) execute(ctx context.Context, run *Run, in runtime.Input, resume []runtime.Event) {
	defer s.runs.Done()
	defer close(run.over)
	// The run's context is its own: release it however the run ends, or every turn
	// would stay attached to the service's context.
	defer run.Cancel(errRunOver)
	rec := newDisplayRecorder(s, run)
	beat := newHeartbeats(s, run)
	beat.thinking()
	if resume == nil {
		rec.user(in.Text)
	}

	var last runtime.Fold // the reply after the last event: a summary's events change nothing
	var spk *speaker
	if s.opts.Speak != nil && s.opts.Speak() {
		spk = newSpeaker(s.log, run.ID, spokenIn(resume), func(ev runtime.Event, full string) {
			s.append(run, ev, runtime.Fold{Full: full, Segment: -1}, nil)
		})
	}
	emit := func(ev runtime.Event, at runtime.Fold) {
		if s.keepsPause(ctx, run) {
			return // Wisp is closing while the run waits: the log ends at the pause
		}
		s.observePause(run, ev)
		rec.observe(ev)
		beat.observe(ev)
		last = at
		s.append(run, ev, at, nil)
		if spk != nil {
			spk.observe(ev, at)
		}
	}
	emitSummary := func(ev runtime.Event) {
		s.append(run, ev, runtime.Fold{Full: last.Full, Segment: -1}, nil)
	}
	var res runtime.Result
	var err error
	model := s.model()
	asked := in.Text // the user's words, before the attachments' lines
	if in.Fitter == nil && in.ConversationID != "" && ctx.Err() == nil {
		// (A run stopped before it goes on, say a paused one stopped after a restart,
		// ends as its turn sees the stop: there is nothing to send.)
		err = s.fitTurn(ctx, run, &in, emitSummary)
		if f, ok := in.Fitter.(*turnFit); ok && resume == nil {
			for _, n := range f.notices {
				rec.save("system", "notification", map[string]any{"text": n}, "", "")
			}
		}
	}
	switch {
	case err != nil:
	case resume == nil:
		res, err = s.agent.Turn(ctx, in, emit)
	default:
		res, err = s.agent.Resume(ctx, runtime.ResumeInput{History: in.History, Text: in.Text, Images: in.Images,
			ConversationID: in.ConversationID, RunID: run.ID, Log: resume, Fitter: in.Fitter}, emit)
	}
	if s.keepsPause(ctx, run) {
		// Paused when Wisp closed: the run stays paused on disk and goes on when the
		// user decides, after the next start (adoptPaused).
		s.recordRunUsage(ctx, run, model, res.Usage) // what it spent so far
		s.unregister(run)
		run.closeReaders()
		return
	}

	if spk != nil && ctx.Err() == nil {
		spk.end() // a stopped run says no more
	}
	status, errMsg := StatusEnded, ""
	var final runtime.Event
	switch {
	case err == nil:
		final = runtime.Event{Type: runtime.EventOutput, Data: runtime.Output{
			FullText: res.FullText, Usage: res.Usage, StopReason: res.StopReason, Steps: res.Steps,
			MessageID: run.ReplyMessageID, History: res.History,
		}}
	case ctx.Err() != nil:
		status, errMsg = StatusInterrupted, context.Cause(ctx).Error()
		final = runtime.Event{Type: runtime.EventInterrupted, Data: runtime.Interrupted{Reason: errMsg}}
	default:
		status, errMsg = StatusFailed, err.Error()
		final = runtime.Event{Type: runtime.EventError, Data: runtime.Error{Message: errMsg}}
	}
	rec.finish(status, errMsg)
	if status == StatusEnded && s.opts.Replied != nil {
		// Before the end is seen: a client that has the end has what it caused.
		s.opts.Replied(Reply{RunID: run.ID, ConversationID: run.ConversationID, Text: res.FullText})
	}

	reply := store.Message{
		ID: run.ReplyMessageID, ConversationID: run.ConversationID, Role: "assistant", Text: res.FullText,
		Source: "chat", RunID: run.ID, CallbackHistory: res.History, Segments: wire.JSON(res.Segments),
		Metadata: replyMeta(status, errMsg), CreatedAt: time.Now(),
	}
	outcome := Outcome{Status: status, Error: errMsg, FullText: res.FullText, History: res.History, Usage: res.Usage, MessageID: reply.ID}
	s.recordRunUsage(ctx, run, model, res.Usage) // before the end is seen: a page read after it has the usage
	s.append(run, final, runtime.Fold{Full: res.FullText, Segment: -1}, func() error {
		err := s.store.EndRun(context.Background(), run.ID, status, errMsg, reply.CreatedAt, &reply)
		run.mu.Lock()
		run.outcome = outcome
		run.mu.Unlock()
		// Before anyone sees the end: a client may send its next message at once.
		s.unregister(run)
		return err
	})
	beat.end(status, res.FullText)
	if status == StatusEnded {
		s.maybeTitle(run, asked, res.FullText)
	}
	// Every client has the end by now: fold the per-token log (Stop waits for it).
	s.compactRun(context.WithoutCancel(ctx), run.ID)
}

// append numbers an event and queues it for the run log; at is the visible reply
// after it. With end set (the final event) it waits until the event was published, so
// the run is over when it returns.
func (s *Service) append(run *Run, ev runtime.Event, at runtime.Fold, end func() error) {
	run.seq++
	p := pending{run: run, item: Item{Seq: run.seq, Event: ev, Time: time.Now(), At: at}, end: end}
	if end != nil {
		p.published = make(chan struct{})
	}
	s.writer.add(p)
	if p.published != nil {
		<-p.published
	}
}

// replyMeta is what the reply message records about its run.
func replyMeta(status, errMsg string) json.RawMessage {
	m := map[string]string{"status": status}
	if errMsg != "" {
		m["error"] = errMsg
	}
	return wire.JSON(m)
}

// fitTurn assembles the turn's history within the model's context window (see
// prepare), summarising first when it must, and gives the turn its Fitter.
func (s *Service) fitTurn(ctx context.Context, run *Run, in *runtime.Input, emit summaryEmit) error {
	question, err := s.store.Message(ctx, run.ConversationID, run.UserMessageID)
	if err != nil {
		return fmt.Errorf("the run's message %s: %w", run.UserMessageID, err)
	}
	question.Text = in.Text
	hist, fit, err := s.prepare(ctx, run.ID, run.ConversationID, question.ParentID, question, emit)
	if err != nil {
		return err
	}
	in.History, in.Fitter = hist, fit
	in.Text, in.Images = fit.q.Text, fit.q.Images
	return nil
}
