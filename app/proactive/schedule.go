package proactive

import (
	"context"
	"errors"
	"time"

	"github.com/wispapp/wisp/app/store"
	"github.com/wispapp/wisp/app/wire"
	"github.com/wispapp/wisp/internal/loop"
)

// maxSleep bounds how long the scheduler trusts one timer: Go timers follow the
// monotonic clock, which stands still while the machine sleeps, so a reminder due
// during a suspend is found within this long after waking.
const maxSleep = time.Minute

// retryAfter is how long a reminder whose delivery failed waits for its next try.
const retryAfter = 10 * time.Second

// dueBatch is how many due reminders one pass delivers before looking again.
const dueBatch = 50

// scheduler delivers each reminder once, at its time. One goroutine owns it.
type scheduler struct {
	s    *Service
	loop *loop.Loop
}

func newScheduler(s *Service) *scheduler { return &scheduler{s: s, loop: loop.New()} }

func (sc *scheduler) start() { sc.loop.Start(sc.run) }

func (sc *scheduler) stop() { sc.loop.Stop() }

// wake makes the loop look at the reminders again (one was added or deleted).
func (sc *scheduler) wake() { sc.loop.Wake() }

func (sc *scheduler) run() {
	clk := sc.s.opts.Clock
	for {
		failed := !sc.deliverDue()
		wait := maxSleep
		if next, ok, err := sc.s.opts.Store.NextReminder(sc.s.base); err != nil {
			if sc.s.base.Err() == nil {
				sc.s.log.Warn("read next reminder", "err", err)
			}
		} else if ok {
			wait = min(max(next.At.Sub(clk.Now()), 0), maxSleep)
		}
		if failed {
			wait = max(wait, retryAfter)
		}
		timer := clk.NewTimer(wait)
		select {
		case <-timer.C():
		case <-sc.loop.Woken():
			timer.Stop()
		case <-sc.loop.Stopping():
			timer.Stop()
			return
		}
	}
}

// deliverDue delivers every reminder whose time has come; false if one failed.
func (sc *scheduler) deliverDue() bool {
	for {
		due, err := sc.s.opts.Store.DueReminders(sc.s.base, sc.s.opts.Clock.Now(), dueBatch)
		if err != nil {
			if sc.s.base.Err() == nil {
				sc.s.log.Warn("read due reminders", "err", err)
			}
			return false
		}
		for _, r := range due {
			if sc.s.base.Err() != nil || !sc.deliver(r) {
				return false
			}
		}
		if len(due) < dueBatch {
			return true
		}
	}
}

// deliver delivers one reminder; false when it stays pending.
func (sc *scheduler) deliver(r store.Reminder) bool {
	late := sc.s.opts.Clock.Now().Sub(r.At) > lateAfter
	d, err := sc.s.router.Deliver(sc.s.base, Note{
		Text: reminderText(r, late), Source: SourceReminder, ConversationID: r.ConversationID,
		ReminderID: r.ID, Late: late,
	})
	switch {
	case errors.Is(err, ErrAlreadyDelivered):
		return true // deleted or delivered meanwhile
	case errors.Is(err, context.Canceled):
		return false
	case err != nil:
		// Left pending: the next pass tries again.
		sc.s.log.Warn("reminder not delivered", "id", r.ID, "err", err)
		return false
	}
	sc.s.activity.add("A reminder came due: " + r.Text)
	r.DeliveredAt, r.Late, r.MessageID = d.Message.CreatedAt, late, d.Message.ID
	sc.s.opts.Events.Publish(wire.NewReminderUpdated(toReminder(r)))
	sc.s.log.Info("reminder delivered", "id", r.ID, "late", late, "conversation", d.Conversation.ID)
	return true
}
