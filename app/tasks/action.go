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
		Description: "Schedule a prompt Wisp sends in this conversation later, for you to answer on your own " +
			"(\"every weekday at 9 summarise my inbox folder\"). Give exactly one of at, rrule, cron; the user " +
			"approves it. For a plain reminder use SCHEDULE_REMINDER.",
		Schema: s.scheduleSchema,
	}, Check: s.checkSchedule, Run: s.schedule})
}

// scheduleSchema tells the model the time zone and the time now, which it needs to
// write a schedule. The time is to the minute, as schedules are: the tools' text
// then changes once a minute, not at every call (the token count of a text seen
// before is remembered; a provider's prompt cache keeps a prefix that stays).
func (s *Service) scheduleSchema() json.RawMessage {
	now := s.opts.Clock.Now().In(s.opts.Location)
	zone, _ := now.Zone()
	return wire.JSON(map[string]any{
		"type": "object",
		"properties": map[string]any{
			"prompt": map[string]any{"type": "string", "description": "What to do each run, as the user would ask"},
			"at": map[string]any{"type": "string", "description": fmt.Sprintf("Once: RFC 3339 with zone. Now: %s %s, "+
				"zone %s (%s); all schedules use this zone",
				now.Format("Monday"), now.Format("2006-01-02T15:04Z07:00"), s.opts.Location.String(), zone)},
			"rrule":   map[string]any{"type": "string", "description": "Recurring: RFC 5545 RRULE without DTSTART (FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR;BYHOUR=9;BYMINUTE=0)"},
			"cron":    map[string]any{"type": "string", "description": "Recurring: 5-field cron (0 9 * * 1-5)"},
			"catchUp": map[string]any{"type": "boolean", "description": "Run times missed while Wisp was off once, at next start (default true)"},
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
