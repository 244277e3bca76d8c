package proactive

import (
	"sync"
	"time"

	"github.com/wispapp/wisp/internal/clock"
)

// activityKept is how many recent happenings the autonomy loop can look back on.
const activityKept = 50

// happening is one thing that happened, told in a sentence.
type happening struct {
	at   time.Time
	text string
}

// activity remembers recent happenings (finished terminal runs, delivered
// reminders) for the autonomy loop. It is safe for concurrent use.
type activity struct {
	clock clock.Clock
	mu    sync.Mutex
	items []happening // oldest first, at most activityKept
}

func newActivity(c clock.Clock) *activity { return &activity{clock: c} }

func (a *activity) add(text string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.items = append(a.items, happening{at: a.clock.Now(), text: text})
	if over := len(a.items) - activityKept; over > 0 {
		a.items = append(a.items[:0], a.items[over:]...)
	}
}

// since returns what happened after t, oldest first.
func (a *activity) since(t time.Time) []happening {
	a.mu.Lock()
	defer a.mu.Unlock()
	var out []happening
	for _, h := range a.items {
		if h.at.After(t) {
			out = append(out, h)
		}
	}
	return out
}
