package tasks

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/wispapp/wisp/app/store"
	"github.com/wispapp/wisp/app/view"
	"github.com/wispapp/wisp/app/wire"
	"github.com/wispapp/wisp/internal/clock"
	"github.com/wispapp/wisp/internal/fault"
	"github.com/wispapp/wisp/internal/ids"
)

// Bounds of what a task may be.
const (
	// MaxTasks is how many tasks there may be at once.
	MaxTasks = 200
	// MaxPromptRunes caps a task's prompt: it is sent as a user message, so it is
	// chat.MaxMessageRunes (app checks they agree).
	MaxPromptRunes = 32000
	// MaxGrants caps a task's own standing grants.
	MaxGrants = 50
	// maxBaseRunes caps one grant's base.
	maxBaseRunes = 512
	// maxResultRunes bounds a run's result: the start of its reply.
	maxResultRunes = 280
	// maxTitleRunes bounds the title of a conversation made for a task.
	maxTitleRunes = 60
)

// SourceTask marks a scheduled run's user message and the proactive message of its
// result.
const SourceTask = "task"

// Runner starts and follows the agent runs of tasks (app: chat).
type Runner interface {
	// Start starts a run in the conversation answering prompt like a user's message
	// would, marked as a task's (source "task", meta as its metadata). claim runs in
	// the transaction that saves the message and the run record; its error undoes
	// both. ErrBusy (wrapped) while a reply is being written there.
	Start(ctx context.Context, convID, prompt string, meta json.RawMessage,
		claim func(ctx context.Context, tx *store.Tx, runID string) error) (runID string, err error)
	// Follow reports a run's pauses, resumes and end to on, in order, until it ended
	// (true), Wisp closed with the run paused, or ctx is done (false).
	Follow(ctx context.Context, runID string, on func(RunEvent)) bool
}

// ErrBusy is what a Runner's Start wraps while the conversation is busy.
var ErrBusy = errors.New("the conversation is busy")

// RunEvent is a change in a task's run.
type RunEvent struct {
	Kind RunEventKind
	// Reply and ReplyID, at the end: the reply's text and message id; Error why it
	// failed.
	Reply, ReplyID, Error string
	Failed                bool
}

// RunEventKind is what happened to a run.
type RunEventKind int

// The kinds of RunEvent.
const (
	RunPaused RunEventKind = iota
	RunResumed
	RunEnded
)

// Presence says whether a client shows a conversation (the hub).
type Presence interface {
	Showing(conversationID string) bool
}

// Options are what the service needs.
type Options struct {
	Store    *store.Store
	Events   wire.Events
	Runner   Runner
	Presence Presence
	Clock    clock.Clock
	// Location is the time zone schedules are evaluated in (nil: time.Local).
	Location *time.Location
	Logger   *slog.Logger
}

// Service keeps the tasks and runs them.
type Service struct {
	opts   Options
	store  *store.Store
	log    *slog.Logger
	sched  *scheduler
	base   context.Context
	cancel context.CancelFunc

	startedAt time.Time // slots before it were missed while Wisp was off
	follows   sync.WaitGroup
	mu        sync.Mutex // orders changes of one task against its runs' claims
}

// New builds the service; Start starts its scheduler.
func New(opts Options) *Service {
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	if opts.Clock == nil {
		opts.Clock = clock.System{}
	}
	if opts.Location == nil {
		opts.Location = time.Local
	}
	if opts.Presence == nil {
		opts.Presence = nobody{}
	}
	base, cancel := context.WithCancel(context.Background())
	s := &Service{opts: opts, store: opts.Store, log: opts.Logger, base: base, cancel: cancel}
	s.sched = newScheduler(s)
	return s
}

type nobody struct{}

func (nobody) Showing(string) bool { return false }

// Start follows the runs a previous process left running or paused, and starts the
// scheduler: slots missed while Wisp was off run once or are skipped.
func (s *Service) Start(ctx context.Context) error {
	s.startedAt = s.opts.Clock.Now()
	open, err := s.store.OpenTaskRuns(ctx)
	if err != nil {
		return err
	}
	for _, r := range open {
		s.follow(r.TaskID, r.RunID)
	}
	s.sched.start()
	return nil
}

// Stop stops the scheduler and the runs' followers (the runs themselves are chat's).
func (s *Service) Stop() {
	s.sched.stop()
	s.cancel()
	s.follows.Wait()
}

// Input is a new task (POST /api/tasks, SCHEDULE_TASK).
type Input struct {
	Prompt         string           `json:"prompt"`
	ConversationID string           `json:"conversationId"`
	At             *string          `json:"at"`
	RRule          *string          `json:"rrule"`
	Cron           *string          `json:"cron"`
	CatchUp        *bool            `json:"catchUp"`
	Grants         []wire.TaskGrant `json:"grants"`
}

// Patch changes a task (PATCH /api/tasks/{id}): a field left out stays; a new
// schedule replaces the old one whole.
type Patch struct {
	Prompt  *string           `json:"prompt"`
	Paused  *bool             `json:"paused"`
	CatchUp *bool             `json:"catchUp"`
	At      *string           `json:"at"`
	RRule   *string           `json:"rrule"`
	Cron    *string           `json:"cron"`
	Grants  *[]wire.TaskGrant `json:"grants"`
}

// specOf reads exactly one of at, rrule and cron; none is ok only when optional.
func specOf(at, rule, cronExpr *string, optional bool) (Spec, bool, error) {
	given := 0
	var spec Spec
	if at != nil && strings.TrimSpace(*at) != "" {
		given++
		t, err := time.Parse(time.RFC3339, strings.TrimSpace(*at))
		if err != nil {
			return Spec{}, false, fault.Invalid.Errorf("at must be an RFC 3339 time with its zone (2025-11-24T09:00:00+01:00): %v", err)
		}
		spec.At = t
	}
	if rule != nil && strings.TrimSpace(*rule) != "" {
		given++
		spec.RRule = strings.TrimSpace(*rule)
	}
	if cronExpr != nil && strings.TrimSpace(*cronExpr) != "" {
		given++
		spec.Cron = strings.TrimSpace(*cronExpr)
	}
	switch {
	case given > 1:
		return Spec{}, false, fault.Invalid.Errorf("give exactly one of at, rrule and cron, not %d", given)
	case given == 0 && !optional:
		return Spec{}, false, fault.Invalid.Errorf("give exactly one of at, rrule and cron")
	}
	return spec, given == 1, nil
}

func checkPrompt(p string) (string, error) {
	p = strings.TrimSpace(p)
	if p == "" {
		return "", fault.Invalid.Errorf("prompt is required")
	}
	if utf8.RuneCountInString(p) > MaxPromptRunes {
		return "", fault.Invalid.Errorf("prompt is longer than %d characters", MaxPromptRunes)
	}
	return p, nil
}

// grantKinds are the kinds a task's own grant may be of: those with bases.
var grantKinds = map[wire.ApprovalKind]bool{wire.KindShell: true, wire.KindMCP: true, wire.KindWeb: true,
	wire.KindFileRead: true, wire.KindFileEdit: true}

func checkGrants(gs []wire.TaskGrant) (json.RawMessage, error) {
	if len(gs) > MaxGrants {
		return nil, fault.Invalid.Errorf("a task has at most %d grants", MaxGrants)
	}
	out := make([]wire.TaskGrant, 0, len(gs))
	for _, g := range gs {
		base := strings.TrimSpace(g.Base)
		if !grantKinds[g.Kind] {
			return nil, fault.Invalid.Errorf("grant kind %q: a task's grant is of kind shell, mcp, web, file_read or file_edit", g.Kind)
		}
		if base == "" || utf8.RuneCountInString(base) > maxBaseRunes || strings.ContainsAny(base, "\x00\n\r") {
			return nil, fault.Invalid.Errorf("grant base %q: one line of 1 to %d characters", base, maxBaseRunes)
		}
		out = append(out, wire.TaskGrant{Kind: g.Kind, Base: base})
	}
	return json.Marshal(out)
}

// Create saves a new task. Without a conversation, one titled after the prompt is
// made with it.
func (s *Service) Create(ctx context.Context, in Input) (wire.Task, error) {
	prompt, err := checkPrompt(in.Prompt)
	if err != nil {
		return wire.Task{}, err
	}
	spec, _, err := specOf(in.At, in.RRule, in.Cron, false)
	if err != nil {
		return wire.Task{}, err
	}
	now := s.opts.Clock.Now()
	sch, err := parse(spec, now, s.opts.Location)
	if err != nil {
		return wire.Task{}, err
	}
	first, err := sch.check(now)
	if err != nil {
		return wire.Task{}, err
	}
	grants, err := checkGrants(in.Grants)
	if err != nil {
		return wire.Task{}, err
	}
	if n, err := s.store.CountTasks(ctx); err != nil {
		return wire.Task{}, err
	} else if n >= MaxTasks {
		return wire.Task{}, fault.Conflict.Errorf("there are %d tasks already, the most Wisp keeps: delete one first", n)
	}
	t := store.Task{ID: "tk_" + ids.New(), Prompt: prompt, ConversationID: in.ConversationID, At: spec.At,
		RRule: spec.RRule, Cron: spec.Cron, DTStart: now, CatchUp: in.CatchUp == nil || *in.CatchUp,
		NextRunAt: first, Grants: grants, CreatedAt: now}
	var made *store.Conversation
	err = s.store.InTx(ctx, func(tx *store.Tx) error {
		if t.ConversationID == "" {
			c := store.Conversation{ID: ids.New(), Title: titleOf(prompt), RoomID: ids.New(), CreatedAt: now, UpdatedAt: now}
			if err := tx.CreateConversation(ctx, c); err != nil {
				return err
			}
			t.ConversationID, made = c.ID, &c
		}
		return tx.CreateTask(ctx, t)
	})
	if errors.Is(err, store.ErrNotFound) {
		return wire.Task{}, fault.NotFound.Errorf("conversation %s not found", in.ConversationID)
	}
	if err != nil {
		return wire.Task{}, err
	}
	if made != nil {
		s.opts.Events.Publish(wire.NewConversationUpdated(view.Conversation(*made)))
	}
	out := s.publish(ctx, t)
	s.sched.wake()
	s.log.Info("task created", "task", t.ID, "schedule", out.Schedule, "next", first)
	return out, nil
}

// titleOf is the title of a conversation made for a task: its prompt's first line,
// shortened.
func titleOf(prompt string) string {
	line, _, _ := strings.Cut(prompt, "\n")
	line = strings.Join(strings.Fields(line), " ")
	if r := []rune(line); len(r) > maxTitleRunes {
		line = strings.TrimSpace(string(r[:maxTitleRunes-1])) + "…"
	}
	if line == "" {
		return "Task"
	}
	return line
}

// Tasks lists every task, by next run, paused last.
func (s *Service) Tasks(ctx context.Context) ([]wire.Task, error) {
	list, err := s.store.Tasks(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]wire.Task, 0, len(list))
	for _, t := range list {
		w, err := s.toWire(ctx, t)
		if err != nil {
			return nil, err
		}
		out = append(out, w)
	}
	return out, nil
}

// Task returns one task.
func (s *Service) Task(ctx context.Context, id string) (wire.Task, error) {
	t, err := s.load(ctx, id)
	if err != nil {
		return wire.Task{}, err
	}
	return s.toWire(ctx, t)
}

func (s *Service) load(ctx context.Context, id string) (store.Task, error) {
	t, err := s.store.Task(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return t, fault.NotFound.Errorf("task %s not found", id)
	}
	return t, err
}

// Update changes a task. A new schedule starts from now; resuming a paused task
// moves its next run to the schedule's next slot after now.
func (s *Service) Update(ctx context.Context, id string, p Patch) (wire.Task, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	t, err := s.load(ctx, id)
	if err != nil {
		return wire.Task{}, err
	}
	now := s.opts.Clock.Now()
	if p.Prompt != nil {
		if t.Prompt, err = checkPrompt(*p.Prompt); err != nil {
			return wire.Task{}, err
		}
	}
	if p.CatchUp != nil {
		t.CatchUp = *p.CatchUp
	}
	if p.Grants != nil {
		if t.Grants, err = checkGrants(*p.Grants); err != nil {
			return wire.Task{}, err
		}
	}
	spec, given, err := specOf(p.At, p.RRule, p.Cron, true)
	if err != nil {
		return wire.Task{}, err
	}
	resumed := p.Paused != nil && !*p.Paused && t.Paused
	if p.Paused != nil {
		t.Paused = *p.Paused
	}
	if given {
		sch, err := parse(spec, now, s.opts.Location)
		if err != nil {
			return wire.Task{}, err
		}
		first, err := sch.check(now)
		if err != nil {
			return wire.Task{}, err
		}
		t.At, t.RRule, t.Cron, t.DTStart, t.NextRunAt = spec.At, spec.RRule, spec.Cron, now, first
	} else if resumed {
		// What fell due while it was paused is not caught up: it was paused.
		sch, err := s.scheduleOf(t)
		if err != nil {
			return wire.Task{}, err
		}
		t.NextRunAt = sch.next(now)
	}
	if err := s.store.UpdateTask(ctx, t); err != nil {
		return wire.Task{}, err
	}
	s.sched.wake()
	return s.publish(ctx, t), nil
}

// Delete deletes a task; a run of it going on goes on.
func (s *Service) Delete(ctx context.Context, id string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	err := s.store.DeleteTask(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return fault.NotFound.Errorf("task %s not found", id)
	}
	if err != nil {
		return err
	}
	s.opts.Events.Publish(wire.NewTaskDeleted(id))
	s.sched.wake()
	return nil
}

// RunNow starts a run of the task now, out of its schedule; a conflict while one of
// its runs is running or paused, or while its conversation is busy.
func (s *Service) RunNow(ctx context.Context, id string) (wire.Task, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	t, err := s.load(ctx, id)
	if err != nil {
		return wire.Task{}, err
	}
	if last, ok, err := s.store.LastTaskRun(ctx, id); err != nil {
		return wire.Task{}, err
	} else if ok && open(last.Status) {
		return wire.Task{}, fault.Conflict.Errorf("a run of this task is still %s", last.Status)
	}
	now := s.opts.Clock.Now()
	w, err := s.startRun(ctx, t, now.Truncate(time.Millisecond), true, time.Time{})
	if errors.Is(err, ErrBusy) {
		return wire.Task{}, fault.Conflict.Errorf("a reply is being written in the task's conversation: try again when it ends")
	}
	if errors.Is(err, store.ErrSlotTaken) {
		return wire.Task{}, fault.Conflict.Errorf("this task was just run")
	}
	if err != nil {
		return wire.Task{}, err
	}
	return w, nil
}

func open(status string) bool {
	return status == string(wire.TaskRunRunning) || status == string(wire.TaskRunPaused)
}

// scheduleOf parses a stored task's schedule.
func (s *Service) scheduleOf(t store.Task) (*schedule, error) {
	return parse(Spec{At: t.At, RRule: t.RRule, Cron: t.Cron}, t.DTStart, s.opts.Location)
}

// errStale refuses a claim for a slot the task no longer has (changed, paused or
// deleted since the slot was read).
var errStale = errors.New("the task changed before its slot was claimed")

// startRun starts the task's run for slot. A scheduled run (manual false) claims the
// slot only while the task still has it due, and moves the task's next run to next
// in the same transaction. Clients are told the task with its new run as soon as
// that transaction committed, from what it wrote: nothing is read again first.
func (s *Service) startRun(ctx context.Context, t store.Task, slot time.Time, manual bool, next time.Time) (wire.Task, error) {
	meta := wire.JSON(map[string]any{"source": SourceTask, "taskId": t.ID, "slot": wire.ISOTime(slot), "manual": manual})
	var run store.TaskRun
	runID, err := s.opts.Runner.Start(ctx, t.ConversationID, t.Prompt, meta,
		func(ctx context.Context, tx *store.Tx, runID string) error {
			if !manual {
				moved, err := tx.MoveTaskNext(ctx, t.ID, t.NextRunAt, next)
				if errors.Is(err, store.ErrNotFound) {
					return errStale
				}
				if err != nil {
					return err
				}
				t = moved
			}
			run = store.TaskRun{TaskID: t.ID, Slot: slot, RunID: runID, Manual: manual,
				StartedAt: s.opts.Clock.Now(), Status: string(wire.TaskRunRunning)}
			return tx.ClaimTaskRun(ctx, run)
		})
	if err != nil {
		return wire.Task{}, err
	}
	w, err := s.wireOf(t, &run)
	if err == nil {
		s.opts.Events.Publish(wire.NewTaskUpdated(w))
	} else {
		s.log.Warn("read task", "task", t.ID, "err", err)
	}
	s.follow(t.ID, runID)
	s.log.Info("task run started", "task", t.ID, "run", runID, "slot", slot, "manual", manual)
	return w, nil
}

// publish tells every client the task as it is now and returns it.
func (s *Service) publish(ctx context.Context, t store.Task) wire.Task {
	w, err := s.toWire(ctx, t)
	if err != nil {
		s.log.Warn("read task", "task", t.ID, "err", err)
		return w
	}
	s.opts.Events.Publish(wire.NewTaskUpdated(w))
	return w
}

// toWire is a task as the API shows it, with its last run.
func (s *Service) toWire(ctx context.Context, t store.Task) (wire.Task, error) {
	last, ok, err := s.store.LastTaskRun(ctx, t.ID)
	if err != nil {
		return wire.Task{}, err
	}
	var lastRun *store.TaskRun
	if ok {
		lastRun = &last
	}
	return s.wireOf(t, lastRun)
}

// wireOf is a task as the API shows it, given its last run (nil: none).
func (s *Service) wireOf(t store.Task, last *store.TaskRun) (wire.Task, error) {
	w := wire.Task{ID: t.ID, Prompt: t.Prompt, ConversationID: t.ConversationID, RRule: t.RRule, Cron: t.Cron,
		CatchUp: t.CatchUp, Paused: t.Paused, Grants: []wire.TaskGrant{}, CreatedAt: wire.ISOTime(t.CreatedAt)}
	if !t.At.IsZero() {
		at := wire.ISOTime(t.At)
		w.At = &at
	}
	if sch, err := s.scheduleOf(t); err == nil {
		w.Schedule = sch.words()
	}
	if !t.NextRunAt.IsZero() && !t.Paused {
		next := wire.ISOTime(t.NextRunAt)
		w.NextRunAt = &next
	}
	if len(t.Grants) > 0 {
		if err := json.Unmarshal(t.Grants, &w.Grants); err != nil {
			return w, fmt.Errorf("task %s grants: %w", t.ID, err)
		}
	}
	if last != nil {
		w.LastRun = &wire.TaskRun{Slot: wire.ISOTime(last.Slot), RunID: last.RunID, StartedAt: wire.ISOTime(last.StartedAt),
			Status: wire.TaskRunStatus(last.Status), Manual: last.Manual, Result: last.Result, Error: last.Error}
	}
	return w, nil
}

// RunGrants are the standing grants of the task whose run runID is: none for a
// run of no task (approval.Options.RunGrants).
func (s *Service) RunGrants(ctx context.Context, runID string) ([]wire.TaskGrant, error) {
	r, err := s.store.TaskRunOf(ctx, runID)
	if errors.Is(err, store.ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	t, err := s.store.Task(ctx, r.TaskID)
	if errors.Is(err, store.ErrNotFound) {
		return nil, nil // deleted: its grants went with it
	}
	if err != nil {
		return nil, err
	}
	var gs []wire.TaskGrant
	if err := json.Unmarshal(t.Grants, &gs); err != nil {
		return nil, fmt.Errorf("task %s grants: %w", t.ID, err)
	}
	return gs, nil
}
