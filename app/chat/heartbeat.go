package chat

import (
	"time"
	"unicode/utf8"

	"github.com/wispapp/wisp/app/wire"
	"github.com/wispapp/wisp/runtime"
)

// heartbeats publishes a run's heartbeat_event envelopes: thinking when it starts,
// replying at the first text, then sent or failed.
type heartbeats struct {
	s        *Service
	run      *Run
	start    time.Time
	replying bool
}

func newHeartbeats(s *Service, run *Run) *heartbeats {
	return &heartbeats{s: s, run: run, start: time.Now()}
}

func (h *heartbeats) thinking() { h.publish("thinking", "Thinking…") }

func (h *heartbeats) observe(ev runtime.Event) {
	if d, ok := ev.Data.(runtime.TextDelta); ok && !h.replying {
		h.replying = true
		h.publish("replying", preview(d.Text))
	}
}

func (h *heartbeats) end(status, text string) {
	if status == StatusEnded {
		h.publish("sent", preview(text))
		return
	}
	h.publish("failed", status)
}

func (h *heartbeats) publish(status, pre string) {
	now := time.Now()
	h.s.events.Publish(wire.NewTurnHeartbeat(wire.TurnHeartbeat{
		TS: now.UnixMilli(), Status: wire.TurnStatus(status), To: "chat", Preview: pre,
		DurationMs: now.Sub(h.start).Milliseconds(), ConversationID: h.run.ConversationID, RunID: h.run.ID,
	}))
}

// preview is the start of a text, for an activity line.
func preview(s string) string {
	const max = 80
	if utf8.RuneCountInString(s) <= max {
		return s
	}
	return string([]rune(s)[:max]) + "…"
}
