package tasks

import (
	"context"
	"errors"
	"time"

	"github.com/wispapp/wisp/app/store"
	"github.com/wispapp/wisp/app/wire"
	"github.com/wispapp/wisp/internal/loop"
)

// maxSleep bounds how long the scheduler trusts one timer: Go timers follow the
// monotonic clock, which stands still while the machine sleeps, so a slot due
// during a suspend is found within this long after waking.
const maxSleep = time.Minute

// retryAfter is how long a slot waits when its conversation is busy, or its start
// failed for a reason that may pass.
const retryAfter = 5 * time.Second

// dueBatch is how many due tasks one pass looks at before looking again.
const dueBatch = 50

// scheduler starts each task's slot once, at its time. One goroutine owns it.
type scheduler struct {
	s    *Service
	loop *loop.Loop
	// waiting are the tasks whose conversation was busy, with when to try again.
	waiting map[string]time.Time
}

func newScheduler(s *Service) *scheduler {
	return &scheduler{s: s, loop: loop.New(), waiting: map[string]time.Time{}}
}

func (sc *scheduler) start() { sc.loop.Start(sc.run) }

func (sc *scheduler) stop() { sc.loop.Stop() }

// wake makes the loop look at the tasks again (one was added, changed or deleted).
func (sc *scheduler) wake() { sc.loop.Wake() }

func (sc *scheduler) run() {
	clk := sc.s.opts.Clock
	spun := 0
	for {
		sc.runDue()
		now := clk.Now()
		deadline := sc.nextDeadline(now)
		if !deadline.After(now) && spun < 3 {
			spun++ // a slot came due since runDue read the clock: look again now
			continue
		}
		spun = 0
		if !deadline.After(now) {
			// Due and still not started (its start failed, and so did recording
			// that): look again shortly, never spinning.
			deadline = now.Add(time.Second)
		}
		timer := clk.NewTimer(max(deadline.Sub(clk.Now()), time.Millisecond))
		// The clock may have moved between reading it and arming the timer (a fake
		// clock in tests): a deadline passed already is not waited for.
		if !clk.Now().Before(deadline) {
			timer.Stop()
			continue
		}
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

// nextDeadline is when the loop looks again: the next slot, a busy task's retry,
// or maxSleep from now, whichever comes first (maybe now or before).
func (sc *scheduler) nextDeadline(now time.Time) time.Time {
	deadline := now.Add(maxSleep)
	if next, ok, err := sc.s.store.NextTaskAt(sc.s.base); err != nil {
		if sc.s.base.Err() == nil {
			sc.s.log.Warn("read next task", "err", err)
		}
	} else if ok && next.Before(deadline) {
		deadline = next
	}
	for _, at := range sc.waiting {
		if at.Before(deadline) {
			deadline = at
		}
	}
	return deadline
}

// runDue starts or skips every slot whose time has come.
func (sc *scheduler) runDue() {
	now := sc.s.opts.Clock.Now()
	due, err := sc.s.store.DueTasks(sc.s.base, now, dueBatch)
	if err != nil {
		if sc.s.base.Err() == nil {
			sc.s.log.Warn("read due tasks", "err", err)
		}
		return
	}
	for id, at := range sc.waiting {
		if !at.After(now) {
			delete(sc.waiting, id)
		}
	}
	for _, t := range due {
		if sc.s.base.Err() != nil {
			return
		}
		if _, ok := sc.waiting[t.ID]; ok {
			continue
		}
		sc.fire(t, now)
	}
}

// fire handles one due task: the latest of its due slots runs, once; or, when it
// was missed while Wisp was off and the task does not catch up, is recorded as
// skipped. Either way the next run moves past now.
func (sc *scheduler) fire(t store.Task, now time.Time) {
	s := sc.s
	s.mu.Lock()
	defer s.mu.Unlock()
	sch, err := s.scheduleOf(t)
	if err != nil { // it was checked when saved: only a broken row gets here
		s.log.Warn("task schedule unreadable", "task", t.ID, "err", err)
		sc.settle(t, t.NextRunAt, time.Time{}, wire.TaskRunFailed, "its schedule cannot be read: "+err.Error())
		return
	}
	slot := sch.latestDue(t.NextRunAt, now)
	next := sch.next(slot)
	if next.IsZero() || !next.After(now) {
		next = sch.next(now)
	}
	if slot.Before(s.startedAt) && !t.CatchUp {
		sc.settle(t, slot, next, wire.TaskRunSkipped, "missed while Wisp was off (this task does not catch up)")
		return
	}
	_, err = s.startRun(s.base, t, slot, false, next)
	switch {
	case err == nil:
	case errors.Is(err, ErrBusy):
		sc.waiting[t.ID] = now.Add(retryAfter)
		s.log.Debug("task waits for its conversation", "task", t.ID)
	case errors.Is(err, errStale), errors.Is(err, context.Canceled):
	case errors.Is(err, store.ErrSlotTaken):
		// It ran before (a process that died after claiming it): never again.
		sc.settle(t, slot, next, "", "")
	default:
		s.log.Warn("task run not started", "task", t.ID, "slot", slot, "err", err)
		sc.settle(t, slot, next, wire.TaskRunFailed, err.Error())
	}
}

// settle records a slot that did not run (status "": nothing to record) and moves
// the task's next run, in one transaction, while the task still has that slot due.
func (sc *scheduler) settle(t store.Task, slot, next time.Time, status wire.TaskRunStatus, why string) {
	s := sc.s
	var cur store.Task
	err := s.store.InTx(s.base, func(tx *store.Tx) error {
		var err error
		cur, err = tx.MoveTaskNext(s.base, t.ID, t.NextRunAt, next)
		if errors.Is(err, store.ErrNotFound) {
			return errStale
		}
		if err != nil {
			return err
		}
		if status == "" {
			return nil
		}
		err = tx.AddTaskRun(s.base, store.TaskRun{TaskID: t.ID, Slot: slot, StartedAt: s.opts.Clock.Now(),
			Status: string(status), Error: why})
		if errors.Is(err, store.ErrSlotTaken) {
			return nil
		}
		return err
	})
	if err != nil {
		if !errors.Is(err, errStale) && s.base.Err() == nil {
			s.log.Warn("task slot not settled", "task", t.ID, "err", err)
		}
		return
	}
	s.log.Info("task slot settled", "task", t.ID, "slot", slot, "status", status, "next", next)
	s.publish(s.base, cur)
}
