package chat

import (
	"log/slog"
	"time"

	"github.com/wispapp/wisp/app/dialect"
	"github.com/wispapp/wisp/runtime"
	"github.com/wispapp/wisp/runtime/reply"
)

// Replay is a subscription to a finished run made of events, numbered from 1 and
// folded as the agent folds them, from after event `after`, encoded by enc: what a
// fake of the chat service streams (the API's tests).
func Replay(runID, agent string, events []runtime.Event, after int64, enc dialect.Encoder) *Subscription {
	rep := &reply.Reply{}
	now := time.Now()
	items := make([]Item, len(events))
	for i, ev := range events {
		items[i] = Item{Seq: int64(i + 1), Event: ev, Time: now, At: runtime.Apply(rep, ev)}
	}
	return &Subscription{log: slog.Default(), runID: runID, agent: agent, src: &storedSource{items: items}, after: after, enc: enc}
}

// EndedRun is a run of a conversation that has already ended with out (what a fake
// of the chat service's Send returns).
func EndedRun(id, convID string, out Outcome) *Run {
	over := make(chan struct{})
	close(over)
	return &Run{ID: id, ConversationID: convID, StartedAt: time.Now(), cancel: func(error) {},
		over: over, notify: make(chan struct{}), ended: true, outcome: out}
}
