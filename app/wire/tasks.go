package wire

// Task is a prompt Wisp runs on a schedule in a conversation (docs/tasks.md): once
// (At), or recurring (RRule, RFC 5545, or Cron, five fields), in the machine's time
// zone. Schedule says it in words. NextRunAt is null when nothing is due any more
// (a one-off that ran) or while it is paused.
type Task struct {
	ID             string  `json:"id"`
	Prompt         string  `json:"prompt"`
	ConversationID string  `json:"conversationId"`
	At             *string `json:"at"`
	RRule          string  `json:"rrule"`
	Cron           string  `json:"cron"`
	Schedule       string  `json:"schedule"`
	// CatchUp runs a slot missed while Wisp was off once at the next start; false
	// skips it.
	CatchUp   bool     `json:"catchUp"`
	Paused    bool     `json:"paused"`
	NextRunAt *string  `json:"nextRunAt"`
	LastRun   *TaskRun `json:"lastRun"`
	// Grants are standing grants of this task's own: they cover calls of its runs
	// only (kind and base as a Grant's).
	Grants    []TaskGrant `json:"grants"`
	CreatedAt string      `json:"createdAt"`
}

// TaskRun is one run of a task: the slot it was for (the scheduled time, or the
// time "run now" was asked), its chat run, and how it went.
type TaskRun struct {
	Slot      string        `json:"slot"`
	RunID     string        `json:"runId"`
	StartedAt string        `json:"startedAt"`
	Status    TaskRunStatus `json:"status"`
	// Manual says the user ran it now, out of its schedule.
	Manual bool `json:"manual"`
	// Result is the start of the run's reply; Error why it failed or was skipped.
	Result string `json:"result"`
	Error  string `json:"error"`
}

// TaskGrant is a base a task's runs may use without asking.
type TaskGrant struct {
	Kind ApprovalKind `json:"kind"`
	Base string       `json:"base"`
}

// TaskRunStatus is where a task's run stands.
type TaskRunStatus string

// The task run statuses.
const (
	TaskRunRunning TaskRunStatus = "running"
	TaskRunPaused  TaskRunStatus = "paused" // waiting for the user's consent
	TaskRunDone    TaskRunStatus = "done"
	TaskRunFailed  TaskRunStatus = "failed"
	TaskRunSkipped TaskRunStatus = "skipped" // missed while Wisp was off, catchUp false
)

// TaskRunStatuses lists every TaskRunStatus.
var TaskRunStatuses = []TaskRunStatus{TaskRunRunning, TaskRunPaused, TaskRunDone, TaskRunFailed, TaskRunSkipped}

// /ws frames of tasks.
const (
	TypeTaskUpdated = "task-updated"
	TypeTaskDeleted = "task-deleted"
)

// TaskUpdated: a task was created, changed, or ran.
type TaskUpdated struct {
	Head
	Task Task `json:"task"`
}

// NewTaskUpdated is a task-updated frame.
func NewTaskUpdated(t Task) TaskUpdated { return TaskUpdated{Head{TypeTaskUpdated}, t} }

// TaskDeleted: a task was deleted.
type TaskDeleted struct {
	Head
	ID string `json:"id"`
}

// NewTaskDeleted is a task-deleted frame.
func NewTaskDeleted(id string) TaskDeleted { return TaskDeleted{Head{TypeTaskDeleted}, id} }

// TaskList answers GET /api/tasks.
type TaskList struct {
	Tasks []Task `json:"tasks"`
}

// TaskBody answers a task's routes.
type TaskBody struct {
	Task Task `json:"task"`
}

func exampleTasks() []Task {
	next, at := "2025-11-24T09:00:00.000+01:00", "2025-11-21T18:00:00.000Z"
	return []Task{
		{ID: "tk_1", Prompt: "Check my inbox folder and summarise what is new", ConversationID: exConv,
			RRule: "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR;BYHOUR=9;BYMINUTE=0;BYSECOND=0", Schedule: "every weekday at 09:00",
			CatchUp: true, NextRunAt: &next, Grants: []TaskGrant{{Kind: KindShell, Base: "ls"}}, CreatedAt: exISO,
			LastRun: &TaskRun{Slot: "2025-11-21T09:00:00.000+01:00", RunID: exRun, StartedAt: exISO, Status: TaskRunDone,
				Result: "Two new files: notes.md and todo.txt."}},
		{ID: "tk_2", Prompt: "Say good night", ConversationID: exConv, At: &at, Schedule: "once, Fri 21 Nov 19:00",
			Grants: []TaskGrant{}, CreatedAt: exISO, LastRun: &TaskRun{Slot: at, RunID: "run-2", StartedAt: at,
				Status: TaskRunFailed, Manual: true, Error: "no model is set up"}},
		{ID: "tk_3", Prompt: "Water the plants", ConversationID: exConv, Cron: "0 8 * * 1", Schedule: "cron 0 8 * * 1",
			Paused: true, Grants: []TaskGrant{}, CreatedAt: exISO},
	}
}

func taskExamples() []Frame {
	return []Frame{NewTaskUpdated(exampleTasks()[0]), NewTaskDeleted("tk_2")}
}
