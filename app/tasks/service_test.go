package tasks

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/wispapp/wisp/app/store"
	"github.com/wispapp/wisp/app/wire"
	"github.com/wispapp/wisp/internal/fault"
)

func taskUpdated(id string, status wire.TaskRunStatus) func(wire.Frame) bool {
	return func(f wire.Frame) bool {
		u, ok := f.(wire.TaskUpdated)
		return ok && u.Task.ID == id && u.Task.LastRun != nil && u.Task.LastRun.Status == status
	}
}

// A due slot starts one run, marked as the task's, claimed with the run, and the
// task's next run moves to the next slot in the same transaction.
func TestDueSlotRunsOnce(t *testing.T) {
	berlin := zone(t, "Europe/Berlin")
	e := newEnv(t, berlin, time.Date(2026, 6, 1, 8, 59, 0, 0, berlin))
	task := e.create(Input{Prompt: "check the inbox", Cron: ptr("0 9 * * *")})
	if task.NextRunAt == nil || *task.NextRunAt != wire.ISOTime(time.Date(2026, 6, 1, 9, 0, 0, 0, berlin)) {
		t.Fatalf("next run %v", task.NextRunAt)
	}
	e.frames.waitFor(t, "task-updated of the new task", func(f wire.Frame) bool {
		u, ok := f.(wire.TaskUpdated)
		return ok && u.Task.ID == task.ID
	})
	e.settle()
	e.clk.Advance(time.Minute)
	s := e.runner.nextStart(t)
	if s.prompt != "check the inbox" || s.convID != e.conv {
		t.Fatalf("started %+v", s)
	}
	var meta map[string]any
	if err := json.Unmarshal(s.meta, &meta); err != nil || meta["source"] != SourceTask || meta["taskId"] != task.ID {
		t.Fatalf("the message's metadata %s", s.meta)
	}
	run := e.lastRun(task.ID)
	if run.RunID != s.runID || run.Status != "running" || run.Manual || !run.Slot.Equal(time.Date(2026, 6, 1, 9, 0, 0, 0, berlin)) {
		t.Fatalf("run %+v", run)
	}
	if next := e.task(task.ID).NextRunAt; !next.Equal(time.Date(2026, 6, 2, 9, 0, 0, 0, berlin)) {
		t.Fatalf("next run %v", next)
	}
	e.frames.waitFor(t, "task-updated with the run", taskUpdated(task.ID, wire.TaskRunRunning))
	e.settle()
	e.runner.noStart(t)
}

// Wisp stops between two slots and starts again before the second: the first is
// not run again, the second runs at its time.
func TestRestartBetweenSlots(t *testing.T) {
	ny := zone(t, "America/New_York")
	e := newEnv(t, ny, time.Date(2026, 6, 1, 8, 59, 0, 0, ny))
	task := e.create(Input{Prompt: "p", RRule: ptr("FREQ=DAILY;BYHOUR=9;BYMINUTE=0")})
	e.settle()
	e.clk.Advance(time.Minute)
	first := e.runner.nextStart(t)
	e.runner.eventsOf(first.runID) <- RunEvent{Kind: RunEnded, Reply: "done"}
	e.frames.waitFor(t, "the first run done", taskUpdated(task.ID, wire.TaskRunDone))
	e.restart(12 * time.Hour) // 21:00, before the next 09:00
	e.settle()
	e.runner.noStart(t)
	e.clk.Advance(12 * time.Hour)
	second := e.runner.nextStart(t)
	if run := e.lastRun(task.ID); run.RunID != second.runID || !run.Slot.Equal(time.Date(2026, 6, 2, 9, 0, 0, 0, ny)) {
		t.Fatalf("second run %+v", run)
	}
}

// Slots missed while Wisp was off run once, the latest of them, when the task
// catches up; otherwise the latest is recorded as skipped. Either way the next
// run is the next slot after now.
func TestMissedRuns(t *testing.T) {
	berlin := zone(t, "Europe/Berlin")
	for _, catchUp := range []bool{true, false} {
		t.Run(map[bool]string{true: "catch up", false: "skip"}[catchUp], func(t *testing.T) {
			e := newEnv(t, berlin, time.Date(2026, 6, 1, 8, 0, 0, 0, berlin))
			task := e.create(Input{Prompt: "p", Cron: ptr("0 9 * * *"), CatchUp: ptr(catchUp)})
			e.restart(3*24*time.Hour + 2*time.Hour) // off from Jun 1 08:00 to Jun 4 10:00: 4 slots missed
			latest := time.Date(2026, 6, 4, 9, 0, 0, 0, berlin)
			if catchUp {
				s := e.runner.nextStart(t)
				run := e.lastRun(task.ID)
				if run.RunID != s.runID || !run.Slot.Equal(latest) {
					t.Fatalf("caught up %+v, want the slot %v", run, latest)
				}
			} else {
				e.frames.waitFor(t, "the skipped slot", taskUpdated(task.ID, wire.TaskRunSkipped))
				run := e.lastRun(task.ID)
				if run.RunID != "" || !run.Slot.Equal(latest) || !strings.Contains(run.Error, "missed") {
					t.Fatalf("skipped %+v", run)
				}
			}
			if next := e.task(task.ID).NextRunAt; !next.Equal(time.Date(2026, 6, 5, 9, 0, 0, 0, berlin)) {
				t.Fatalf("next run %v", next)
			}
			e.settle()
			e.runner.noStart(t)
		})
	}
}

// A process that claimed a slot and died (kill -9) before anything else: the next
// one never runs that slot again, whether the claim moved the next run (as it
// does, in one transaction) or the task still shows the slot due.
func TestClaimedSlotNeverRunsAgain(t *testing.T) {
	ny := zone(t, "America/New_York")
	for _, moved := range []bool{true, false} {
		t.Run(map[bool]string{true: "claim and next run", false: "claim only"}[moved], func(t *testing.T) {
			e := newEnv(t, ny, time.Date(2026, 6, 1, 8, 0, 0, 0, ny))
			task := e.create(Input{Prompt: "p", Cron: ptr("0 9 * * *")})
			e.close()
			e.clk.Advance(time.Hour + time.Minute)
			e.open()
			slot := time.Date(2026, 6, 1, 9, 0, 0, 0, ny)
			ctx := context.Background()
			// What the dead process committed: its run's claim.
			if err := e.st.InTx(ctx, func(tx *store.Tx) error {
				if moved {
					if err := tx.SetTaskNext(ctx, task.ID, slot.Add(24*time.Hour)); err != nil {
						return err
					}
				}
				return tx.ClaimTaskRun(ctx, store.TaskRun{TaskID: task.ID, Slot: slot, RunID: "run-dead",
					StartedAt: slot, Status: "running"})
			}); err != nil {
				t.Fatal(err)
			}
			e.start()
			if !moved {
				e.frames.waitFor(t, "the task moved on", func(f wire.Frame) bool {
					u, ok := f.(wire.TaskUpdated)
					return ok && u.Task.NextRunAt != nil && *u.Task.NextRunAt == wire.ISOTime(slot.Add(24*time.Hour))
				})
			}
			e.settle()
			e.runner.noStart(t)
			if run := e.lastRun(task.ID); run.RunID != "run-dead" {
				t.Fatalf("last run %+v", run)
			}
		})
	}
}

// A conversation busy with a reply delays the slot, which runs once it is free:
// never skipped.
func TestBusyConversationWaits(t *testing.T) {
	berlin := zone(t, "Europe/Berlin")
	e := newEnv(t, berlin, time.Date(2026, 6, 1, 8, 59, 0, 0, berlin))
	e.runner.busy = 2
	task := e.create(Input{Prompt: "p", Cron: ptr("0 9 * * *")})
	e.settle()
	e.clk.Advance(time.Minute)
	for range 2 {
		e.settle()
		e.runner.noStart(t)
		e.clk.Advance(retryAfter)
	}
	e.runner.nextStart(t)
	if run := e.lastRun(task.ID); !run.Slot.Equal(time.Date(2026, 6, 1, 9, 0, 0, 0, berlin)) {
		t.Fatalf("run %+v", run)
	}
}

// A run that pauses for consent says so on its task and marks its conversation
// unread; its end records the start of the reply and announces the reply as a
// proactive message of source task.
func TestPausedRunNotified(t *testing.T) {
	berlin := zone(t, "Europe/Berlin")
	e := newEnv(t, berlin, time.Date(2026, 6, 1, 8, 0, 0, 0, berlin))
	task := e.create(Input{Prompt: "p", Cron: ptr("0 9 * * *")})
	got, err := e.svc.RunNow(context.Background(), task.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got.LastRun == nil || !got.LastRun.Manual || got.LastRun.Status != wire.TaskRunRunning {
		t.Fatalf("run now: %+v", got.LastRun)
	}
	if _, err := e.svc.RunNow(context.Background(), task.ID); fault.KindOf(err) != fault.Conflict {
		t.Fatalf("a second run now while one runs: %v", err)
	}
	s := e.runner.nextStart(t)
	events := e.runner.eventsOf(s.runID)
	events <- RunEvent{Kind: RunPaused}
	e.frames.waitFor(t, "task-updated paused", taskUpdated(task.ID, wire.TaskRunPaused))
	e.frames.waitFor(t, "the conversation marked unread", func(f wire.Frame) bool {
		u, ok := f.(wire.ConversationUpdated)
		return ok && u.Conversation.ID == e.conv && u.Conversation.Unread
	})
	events <- RunEvent{Kind: RunResumed}
	e.frames.waitFor(t, "task-updated running again", func(f wire.Frame) bool {
		u, ok := f.(wire.TaskUpdated)
		return ok && u.Task.LastRun != nil && u.Task.LastRun.Status == wire.TaskRunRunning && u.Task.LastRun.RunID == s.runID
	})
	reply := "Two new files. " + strings.Repeat("More words. ", 100)
	events <- RunEvent{Kind: RunEnded, Reply: reply, ReplyID: "m-reply"}
	done := e.frames.waitFor(t, "task-updated done", taskUpdated(task.ID, wire.TaskRunDone)).(wire.TaskUpdated)
	if r := done.Task.LastRun.Result; !strings.HasPrefix(r, "Two new files.") || len([]rune(r)) > maxResultRunes {
		t.Fatalf("result %q", r)
	}
	p := e.frames.waitFor(t, "the proactive message", func(f wire.Frame) bool {
		_, ok := f.(wire.Proactive)
		return ok
	}).(wire.Proactive)
	if p.Message.ID != "m-reply" || p.Message.Source != SourceTask || p.Message.Text != reply || p.ConversationID != e.conv {
		t.Fatalf("proactive %+v", p)
	}
}

// A task's own grants are its runs' only.
func TestRunGrants(t *testing.T) {
	berlin := zone(t, "Europe/Berlin")
	e := newEnv(t, berlin, time.Date(2026, 6, 1, 8, 0, 0, 0, berlin))
	ctx := context.Background()
	granted := e.create(Input{Prompt: "p", Cron: ptr("0 9 * * *"), Grants: []wire.TaskGrant{{Kind: wire.KindShell, Base: "git"}}})
	other := e.create(Input{Prompt: "q", Cron: ptr("0 9 * * *")})
	if len(granted.Grants) != 1 || granted.Grants[0].Base != "git" || other.Grants == nil {
		t.Fatalf("grants %+v %+v", granted.Grants, other.Grants)
	}
	if _, err := e.svc.RunNow(ctx, granted.ID); err != nil {
		t.Fatal(err)
	}
	mine := e.runner.nextStart(t)
	if _, err := e.svc.RunNow(ctx, other.ID); err != nil {
		t.Fatal(err)
	}
	theirs := e.runner.nextStart(t)
	for run, want := range map[string]int{mine.runID: 1, theirs.runID: 0, "a-chat-run": 0} {
		gs, err := e.svc.RunGrants(ctx, run)
		if err != nil || len(gs) != want {
			t.Errorf("run %s: grants %v (%v), want %d", run, gs, err, want)
		}
	}
}

// What a task may not be is refused with the reason, nothing saved.
func TestCreateRefused(t *testing.T) {
	berlin := zone(t, "Europe/Berlin")
	now := time.Date(2026, 6, 1, 8, 0, 0, 0, berlin)
	e := newEnv(t, berlin, now)
	ctx := context.Background()
	cases := []struct {
		name string
		in   Input
		kind fault.Kind
		want string
	}{
		{"no prompt", Input{Cron: ptr("0 9 * * *")}, fault.Invalid, "prompt is required"},
		{"prompt too long", Input{Prompt: strings.Repeat("x", MaxPromptRunes+1), Cron: ptr("0 9 * * *")}, fault.Invalid, "longer than"},
		{"no schedule", Input{Prompt: "p"}, fault.Invalid, "exactly one of at, rrule and cron"},
		{"two schedules", Input{Prompt: "p", Cron: ptr("0 9 * * *"), RRule: ptr("FREQ=DAILY")}, fault.Invalid, "not 2"},
		{"at not RFC 3339", Input{Prompt: "p", At: ptr("tomorrow")}, fault.Invalid, "RFC 3339"},
		{"at in the past", Input{Prompt: "p", At: ptr(now.Add(-time.Hour).Format(time.RFC3339))}, fault.Invalid, "in the past"},
		{"every second", Input{Prompt: "p", RRule: ptr("FREQ=SECONDLY")}, fault.Invalid, "more often than once a minute"},
		{"a grant of kind task", Input{Prompt: "p", Cron: ptr("0 9 * * *"), Grants: []wire.TaskGrant{{Kind: wire.KindTask, Base: "x"}}}, fault.Invalid, "grant kind"},
		{"an empty grant", Input{Prompt: "p", Cron: ptr("0 9 * * *"), Grants: []wire.TaskGrant{{Kind: wire.KindShell}}}, fault.Invalid, "grant base"},
		{"unknown conversation", Input{Prompt: "p", Cron: ptr("0 9 * * *"), ConversationID: "nope"}, fault.NotFound, "conversation nope"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := e.svc.Create(ctx, tc.in)
			if fault.KindOf(err) != tc.kind || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("got %v, want %v %q", err, tc.kind, tc.want)
			}
		})
	}
	if n, _ := e.st.CountTasks(ctx); n != 0 {
		t.Fatalf("%d tasks saved", n)
	}
	for range MaxTasks {
		e.create(Input{Prompt: "p", Cron: ptr("0 9 * * *")})
	}
	if _, err := e.svc.Create(ctx, Input{Prompt: "p", Cron: ptr("0 9 * * *"), ConversationID: e.conv}); fault.KindOf(err) != fault.Conflict {
		t.Fatalf("task %d: %v", MaxTasks+1, err)
	}
}

// Without a conversation, a task gets a new one titled after its prompt; a patch
// replaces the schedule whole; pausing clears the next run and resuming sets it
// from now; delete tells clients.
func TestCreateUpdateDelete(t *testing.T) {
	berlin := zone(t, "Europe/Berlin")
	e := newEnv(t, berlin, time.Date(2026, 6, 1, 8, 0, 0, 0, berlin))
	ctx := context.Background()
	task, err := e.svc.Create(ctx, Input{Prompt: "Check my inbox folder\nand summarise", RRule: ptr("FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR;BYHOUR=9;BYMINUTE=0")})
	if err != nil {
		t.Fatal(err)
	}
	if task.ConversationID == e.conv || !task.CatchUp || task.Schedule != "every weekday at 09:00" {
		t.Fatalf("task %+v", task)
	}
	c, err := e.st.Conversation(ctx, task.ConversationID)
	if err != nil || c.Title != "Check my inbox folder" {
		t.Fatalf("conversation %+v (%v)", c, err)
	}
	got, err := e.svc.Update(ctx, task.ID, Patch{Cron: ptr("30 7 * * *")})
	if err != nil || got.RRule != "" || got.Cron != "30 7 * * *" || *got.NextRunAt != wire.ISOTime(time.Date(2026, 6, 2, 7, 30, 0, 0, berlin)) {
		t.Fatalf("patched %+v (%v)", got, err)
	}
	if _, err := e.svc.Update(ctx, task.ID, Patch{Cron: ptr("nope")}); fault.KindOf(err) != fault.Invalid {
		t.Fatalf("a bad cron: %v", err)
	}
	got, err = e.svc.Update(ctx, task.ID, Patch{Paused: ptr(true)})
	if err != nil || !got.Paused || got.NextRunAt != nil {
		t.Fatalf("paused %+v (%v)", got, err)
	}
	e.settle()
	e.clk.Advance(2 * 24 * time.Hour)
	e.settle()
	e.runner.noStart(t)
	got, err = e.svc.Update(ctx, task.ID, Patch{Paused: ptr(false)})
	if err != nil || got.Paused || *got.NextRunAt != wire.ISOTime(time.Date(2026, 6, 4, 7, 30, 0, 0, berlin)) {
		t.Fatalf("resumed %+v (%v)", got, err)
	}
	if err := e.svc.Delete(ctx, task.ID); err != nil {
		t.Fatal(err)
	}
	e.frames.waitFor(t, "task-deleted", func(f wire.Frame) bool {
		d, ok := f.(wire.TaskDeleted)
		return ok && d.ID == task.ID
	})
	if err := e.svc.Delete(ctx, task.ID); fault.KindOf(err) != fault.NotFound {
		t.Fatalf("delete again: %v", err)
	}
	if _, err := e.svc.RunNow(ctx, task.ID); fault.KindOf(err) != fault.NotFound {
		t.Fatalf("run a deleted task: %v", err)
	}
}
