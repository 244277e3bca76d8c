package tasks

import (
	"context"
	"errors"
	"strings"
	"unicode/utf8"

	"github.com/wispapp/wisp/app/store"
	"github.com/wispapp/wisp/app/view"
	"github.com/wispapp/wisp/app/wire"
)

// follow follows a task's run in its own goroutine until it ends (or Wisp closes):
// each pause, resume and the end are saved on the task's run and told to clients.
func (s *Service) follow(taskID, runID string) {
	if runID == "" {
		return
	}
	s.follows.Add(1)
	go func() {
		defer s.follows.Done()
		s.opts.Runner.Follow(s.base, runID, func(ev RunEvent) { s.observe(taskID, runID, ev) })
	}()
}

// observe records one change of a task's run. A pause marks the conversation unread
// (the approval it waits for notifies on its own); the end saves the start of the
// reply as the run's result and announces the reply as a proactive message.
func (s *Service) observe(taskID, runID string, ev RunEvent) {
	ctx := context.WithoutCancel(s.base)
	var status wire.TaskRunStatus
	var result, errText string
	switch ev.Kind {
	case RunPaused:
		status = wire.TaskRunPaused
	case RunResumed:
		status = wire.TaskRunRunning
	case RunEnded:
		status, result, errText = wire.TaskRunDone, bounded(ev.Reply), ""
		if ev.Failed {
			status, errText = wire.TaskRunFailed, bounded(ev.Error)
		}
	}
	r, err := s.store.SetTaskRunStatus(ctx, runID, string(status), result, errText)
	if err != nil {
		if !errors.Is(err, store.ErrNotFound) { // deleted with its task
			s.log.Warn("save task run", "run", runID, "err", err)
		}
		return
	}
	t, err := s.store.Task(ctx, taskID)
	if err != nil {
		return
	}
	s.publish(ctx, t)
	switch {
	case ev.Kind == RunPaused:
		s.markUnread(ctx, t.ConversationID)
		s.log.Info("task run waits for consent", "task", taskID, "run", runID)
	case ev.Kind == RunEnded:
		conv := s.markUnread(ctx, t.ConversationID)
		if ev.ReplyID != "" && strings.TrimSpace(ev.Reply) != "" && conv != nil {
			s.opts.Events.Publish(wire.NewProactive(conv.ID, wire.ProactiveMessage{ID: ev.ReplyID, Role: "assistant",
				Text: ev.Reply, Timestamp: s.opts.Clock.Now().UnixMilli(), Source: SourceTask}))
		}
		s.log.Info("task run ended", "task", taskID, "run", runID, "status", r.Status)
	}
}

// markUnread marks the conversation unread unless a client shows it, and tells
// every client; nil when it is gone.
func (s *Service) markUnread(ctx context.Context, convID string) *wire.Conversation {
	var c store.Conversation
	err := s.store.InTx(ctx, func(tx *store.Tx) error {
		var err error
		c, err = tx.SetUnread(ctx, convID, !s.opts.Presence.Showing(convID))
		return err
	})
	if err != nil {
		return nil
	}
	w := view.Conversation(c)
	s.opts.Events.Publish(wire.NewConversationUpdated(w))
	return &w
}

// bounded is the start of a text, at most maxResultRunes, on one line.
func bounded(text string) string {
	text = strings.Join(strings.Fields(text), " ")
	if utf8.RuneCountInString(text) <= maxResultRunes {
		return text
	}
	r := []rune(text)
	return strings.TrimSpace(string(r[:maxResultRunes-1])) + "…"
}
