package tasks

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/wispapp/wisp/app/approval"
	"github.com/wispapp/wisp/app/wire"
	"github.com/wispapp/wisp/runtime"
)

// ScheduleName is the agent's action that schedules a task.
const ScheduleName = "SCHEDULE_TASK"

// maxScheduleArgs bounds a SCHEDULE_TASK's arguments before they are read.
const maxScheduleArgs = MaxPromptRunes*4*2 + 4*maxRuleBytes

// alwaysAsk is why a scheduled task is always asked: no grant covers one.
const alwaysAsk = "a scheduled task runs later on its own, with your grants"

type scheduleArgs struct {
	Prompt  string  `json:"prompt"`
	At      *string `json:"at"`
	RRule   *string `json:"rrule"`
	Cron    *string `json:"cron"`
	CatchUp *bool   `json:"catchUp"`
}

// ScheduleAction is SCHEDULE_TASK {prompt, at?|rrule?|cron?, catchUp?}: the agent
// proposes a task that runs prompt in this conversation on the schedule; the user
// always decides on its card (kind task).
func (s *Service) ScheduleAction(approvals *approval.Service) runtime.Action {
	return approval.Guard(approvals, approval.Guarded[scheduleArgs]{Action: runtime.Action{
		Name: ScheduleName,
		Description: "Schedule a task: Wisp will send the prompt in this conversation at the times given, and you " +
			"will answer it then, on your own (\"every weekday at 9 check my inbox folder and summarise\"). Give " +
			"exactly one of at (once), rrule or cron. The user approves every task. For a one-off message to say " +
			"later, use SCHEDULE_REMINDER instead.",
		Schema: s.scheduleSchema,
	}, Check: s.checkSchedule, Run: s.schedule})
}

// scheduleSchema tells the model the time zone and the time now, which it needs to
// write a schedule.
func (s *Service) scheduleSchema() json.RawMessage {
	now := s.opts.Clock.Now().In(s.opts.Location)
	zone, _ := now.Zone()
	when := fmt.Sprintf("It is now %s (%s) in the user's time zone %s (%s); schedules are in that zone.",
		now.Format(time.RFC3339), now.Format("Monday"), s.opts.Location.String(), zone)
	return wire.JSON(map[string]any{
		"type": "object",
		"properties": map[string]any{
			"prompt": map[string]any{"type": "string", "description": "What you will be asked to do at each run, as the user would ask it"},
			"at":     map[string]any{"type": "string", "description": "Once, at this RFC 3339 time with its zone. " + when},
			"rrule": map[string]any{"type": "string", "description": "Or recurring, an RFC 5545 RRULE without DTSTART " +
				"(FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR;BYHOUR=9;BYMINUTE=0), in that time zone"},
			"cron":    map[string]any{"type": "string", "description": "Or recurring, a five-field cron expression (0 9 * * 1-5)"},
			"catchUp": map[string]any{"type": "boolean", "description": "Run a time missed while Wisp was off once at its next start (default true)"},
		},
		"required": []string{"prompt"},
	})
}

func (s *Service) checkSchedule(_ context.Context, call runtime.Call) (scheduleArgs, approval.Request, error) {
	var a scheduleArgs
	if len(call.Args) > maxScheduleArgs {
		return a, approval.Request{}, fmt.Errorf("the arguments are %d bytes long, over the %d allowed", len(call.Args), maxScheduleArgs)
	}
	if err := json.Unmarshal(call.Args, &a); err != nil {
		return a, approval.Request{}, errors.New("the arguments must be {prompt, at | rrule | cron, catchUp?}")
	}
	prompt, err := checkPrompt(a.Prompt)
	if err != nil {
		return a, approval.Request{}, err
	}
	a.Prompt = prompt
	spec, _, err := specOf(a.At, a.RRule, a.Cron, false)
	if err != nil {
		return a, approval.Request{}, err
	}
	now := s.opts.Clock.Now()
	sch, err := parse(spec, now, s.opts.Location)
	if err != nil {
		return a, approval.Request{}, err
	}
	if _, err := sch.check(now); err != nil {
		return a, approval.Request{}, err
	}
	words := sch.words()
	if a.CatchUp != nil && !*a.CatchUp {
		words += " (times missed while Wisp is off are skipped)"
	}
	return a, approval.Request{Detail: approval.ScheduledTask{Prompt: prompt, Schedule: words},
		AlwaysAsk: []string{alwaysAsk}}, nil
}

// schedule saves the task the user allowed, in the calling conversation.
func (s *Service) schedule(ctx context.Context, call runtime.Call, a scheduleArgs) (string, error) {
	t, err := s.Create(context.WithoutCancel(ctx), Input{Prompt: a.Prompt, ConversationID: call.ConversationID,
		At: a.At, RRule: a.RRule, Cron: a.Cron, CatchUp: a.CatchUp})
	if err != nil {
		return "", err
	}
	next := "never"
	if t.NextRunAt != nil {
		if at, err := time.Parse(time.RFC3339, *t.NextRunAt); err == nil {
			next = at.In(s.opts.Location).Format("Mon 2 Jan 2006 15:04")
		}
	}
	if call.Callback != nil {
		call.Callback("Task scheduled: "+t.Schedule, runtime.MergeReplace)
	}
	return fmt.Sprintf("Task %s scheduled (%s); its first run is %s. The user sees it in Settings → Tasks.", t.ID, t.Schedule, next), nil
}
