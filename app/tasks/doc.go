// Package tasks runs prompts on a schedule (docs/tasks.md): a task is a prompt, a
// schedule (once at a time, an RFC 5545 RRULE or a five-field cron, in the machine's
// time zone) and the conversation its runs go to. One goroutine on internal/clock
// starts each slot's run through a Runner (app: chat's Send, the slot claimed in the
// run's first transaction, so a slot never runs twice, even across a kill -9),
// catches up or skips what was missed while Wisp was off, follows each run to mark
// its conversation unread and tell clients when it pauses for consent or ends, and
// serves the API's tasks and the agent's SCHEDULE_TASK (an approval.Guard of kind
// task, always asked). A task's own standing grants cover only its runs (RunGrants).
//
// It knows the store, the catalog, view, the consent wrapper, the runtime and
// internal/; never chat, the hub or HTTP.
package tasks
