package app

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/wispapp/wisp/app/chat"
	"github.com/wispapp/wisp/app/dialect"
	"github.com/wispapp/wisp/app/store"
	"github.com/wispapp/wisp/app/tasks"
	"github.com/wispapp/wisp/app/wire"
	"github.com/wispapp/wisp/runtime"
)

// A task's prompt is sent as a user message: it is bounded like one.
var _ = [1]struct{}{}[tasks.MaxPromptRunes-chat.MaxMessageRunes]

// registerTasks builds the scheduled tasks (docs/tasks.md) on chat, and offers the
// agent SCHEDULE_TASK through the approval gate.
func (a *App) registerTasks(c *core) error {
	c.tasks = tasks.New(tasks.Options{Store: c.store, Events: a.events, Runner: taskRunner{c.chat}, Presence: c.hub,
		Clock: a.opts.Clock, Logger: a.log.With("component", "tasks")})
	return a.actions.Register(c.tasks.ScheduleAction(c.approvals))
}

// taskRunGrants are the standing grants of a task's run (approval.Options.RunGrants):
// none for other runs.
func (a *App) taskRunGrants(ctx context.Context, runID string) ([]wire.TaskGrant, error) {
	if a.core == nil || a.core.tasks == nil {
		return nil, nil
	}
	return a.core.tasks.RunGrants(ctx, runID)
}

// taskRunner starts a task's runs as chat messages and follows them through their
// run log.
type taskRunner struct{ chat *chat.Service }

func (r taskRunner) Start(ctx context.Context, convID, prompt string, meta json.RawMessage,
	claim func(ctx context.Context, tx *store.Tx, runID string) error) (string, error) {
	run, err := r.chat.Send(ctx, convID, chat.SendInput{Text: prompt, Metadata: meta, Source: tasks.SourceTask, Claim: claim})
	if errors.Is(err, chat.ErrBusy) {
		return "", fmt.Errorf("%w: %w", tasks.ErrBusy, err)
	}
	if err != nil {
		return "", err
	}
	return run.ID, nil
}

func (r taskRunner) Follow(ctx context.Context, runID string, on func(tasks.RunEvent)) bool {
	w := &runWatch{on: on}
	sub, err := r.chat.Subscribe(ctx, runID, 0, w)
	if err != nil {
		return false
	}
	for {
		if _, err := sub.Next(ctx); err != nil {
			return errors.Is(err, io.EOF) && w.ended
		}
	}
}

// runWatch is an encoder that writes nothing: it tells a task of its run's pauses,
// resumes and end as the run log goes by.
type runWatch struct {
	on    func(tasks.RunEvent)
	ended bool
}

func (w *runWatch) Encode(_ []byte, ev dialect.Event) ([]byte, error) {
	switch ev.Event.Type {
	case runtime.EventRunPaused:
		w.on(tasks.RunEvent{Kind: tasks.RunPaused})
	case runtime.EventRunResumed:
		w.on(tasks.RunEvent{Kind: tasks.RunResumed})
	case runtime.EventOutput:
		out, _ := ev.Event.Data.(runtime.Output)
		reply := out.FullText
		if reply == "" {
			reply = ev.At.Full
		}
		w.end(tasks.RunEvent{Kind: tasks.RunEnded, Reply: reply, ReplyID: out.MessageID})
	case runtime.EventInterrupted:
		w.end(tasks.RunEvent{Kind: tasks.RunEnded, Failed: true, Error: "the run was stopped before it finished"})
	case runtime.EventError:
		if e, _ := ev.Event.Data.(runtime.Error); !e.Recoverable {
			w.end(tasks.RunEvent{Kind: tasks.RunEnded, Failed: true, Error: e.Message})
		}
	}
	return nil, dialect.ErrSkip
}

func (w *runWatch) end(ev tasks.RunEvent) {
	if !w.ended {
		w.ended = true
		w.on(ev)
	}
}
