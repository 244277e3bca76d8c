package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/mattn/go-sqlite3"
)

// Task is a prompt Wisp runs on a schedule (app/tasks): exactly one of At, RRule
// and Cron is set. DTStart anchors an RRULE's recurrence. NextRunAt is zero when
// nothing is due any more.
type Task struct {
	ID, Prompt, ConversationID string
	At                         time.Time // zero unless a one-off
	RRule, Cron                string
	DTStart                    time.Time
	CatchUp, Paused            bool
	NextRunAt                  time.Time
	// Grants is the task's own standing grants, a JSON array of {kind, base}.
	Grants    json.RawMessage
	CreatedAt time.Time
}

// TaskRun is one run of a task for one slot (the scheduled time, or the time of a
// "run now"): the slot is claimed once, by the run's first transaction.
type TaskRun struct {
	TaskID    string
	Slot      time.Time
	RunID     string
	Manual    bool
	StartedAt time.Time
	Status    string
	Result    string
	Error     string
}

// ErrSlotTaken means the task's slot was claimed before: it never runs twice.
var ErrSlotTaken = errors.New("this slot of the task was claimed already")

const taskColumns = "id, prompt, conversation_id, at, rrule, cron, dtstart, catch_up, paused, next_run_at, grants, created_at"

const taskRunColumns = "task_id, slot, run_id, manual, started_at, status, result, error"

func scanTask(s scanner) (Task, error) {
	var t Task
	var at, next sql.NullInt64
	var dtstart, created int64
	var grants string
	if err := s.Scan(&t.ID, &t.Prompt, &t.ConversationID, &at, &t.RRule, &t.Cron, &dtstart, &t.CatchUp, &t.Paused,
		&next, &grants, &created); err != nil {
		return Task{}, err
	}
	t.At, t.NextRunAt = fromOptMillis(at), fromOptMillis(next)
	t.DTStart, t.CreatedAt, t.Grants = time.UnixMilli(dtstart), time.UnixMilli(created), json.RawMessage(grants)
	return t, nil
}

func scanTaskRun(s scanner) (TaskRun, error) {
	var r TaskRun
	var slot, started int64
	var runID sql.NullString
	if err := s.Scan(&r.TaskID, &slot, &runID, &r.Manual, &started, &r.Status, &r.Result, &r.Error); err != nil {
		return TaskRun{}, err
	}
	r.Slot, r.StartedAt, r.RunID = time.UnixMilli(slot), time.UnixMilli(started), runID.String
	return r, nil
}

func taskGrants(t Task) (string, error) {
	if len(t.Grants) == 0 {
		return "[]", nil
	}
	if !json.Valid(t.Grants) {
		return "", errors.New("grants are not valid JSON")
	}
	return string(t.Grants), nil
}

// CreateTask saves a new task; ErrNotFound when its conversation does not exist.
func (s *Store) CreateTask(ctx context.Context, t Task) error { return createTask(ctx, s.db, t) }

// CreateTask saves a new task in the transaction (see Store.CreateTask).
func (t *Tx) CreateTask(ctx context.Context, task Task) error { return createTask(ctx, t.tx, task) }

func createTask(ctx context.Context, db querier, t Task) error {
	if err := requireTime("created at", t.CreatedAt); err != nil {
		return fmt.Errorf("create task %s: %w", t.ID, err)
	}
	grants, err := taskGrants(t)
	if err != nil {
		return fmt.Errorf("create task %s: %w", t.ID, err)
	}
	_, err = db.ExecContext(ctx, "INSERT INTO tasks ("+taskColumns+") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
		t.ID, t.Prompt, t.ConversationID, optMillis(t.At), t.RRule, t.Cron, t.DTStart.UnixMilli(), t.CatchUp, t.Paused,
		optMillis(t.NextRunAt), grants, t.CreatedAt.UnixMilli())
	if err != nil {
		return fmt.Errorf("create task %s: %w", t.ID, notFound(err))
	}
	return nil
}

// UpdateTask saves every field of a task but its id, conversation and creation;
// ErrNotFound when it does not exist.
func (s *Store) UpdateTask(ctx context.Context, t Task) error { return updateTask(ctx, s.db, t) }

// UpdateTask saves a task in the transaction (see Store.UpdateTask).
func (t *Tx) UpdateTask(ctx context.Context, task Task) error { return updateTask(ctx, t.tx, task) }

func updateTask(ctx context.Context, db querier, t Task) error {
	grants, err := taskGrants(t)
	if err != nil {
		return fmt.Errorf("update task %s: %w", t.ID, err)
	}
	res, err := db.ExecContext(ctx, `UPDATE tasks SET prompt = ?, at = ?, rrule = ?, cron = ?, dtstart = ?, catch_up = ?,
		paused = ?, next_run_at = ?, grants = ? WHERE id = ?`,
		t.Prompt, optMillis(t.At), t.RRule, t.Cron, t.DTStart.UnixMilli(), t.CatchUp, t.Paused, optMillis(t.NextRunAt), grants, t.ID)
	if err != nil {
		return fmt.Errorf("update task %s: %w", t.ID, err)
	}
	if err := mustAffect(res); err != nil {
		return fmt.Errorf("update task %s: %w", t.ID, err)
	}
	return nil
}

// SetTaskNext moves a task's next run (zero: none).
func (t *Tx) SetTaskNext(ctx context.Context, id string, next time.Time) error {
	res, err := t.tx.ExecContext(ctx, "UPDATE tasks SET next_run_at = ? WHERE id = ?", optMillis(next), id)
	if err != nil {
		return fmt.Errorf("move task %s: %w", id, err)
	}
	if err := mustAffect(res); err != nil {
		return fmt.Errorf("move task %s: %w", id, err)
	}
	return nil
}

// MoveTaskNext moves a task's next run from from to next (zero: none) while the
// task is not paused and still has from due, and returns it as it is now:
// ErrNotFound otherwise. One statement checks and moves, so a claim's
// transaction reads nothing before it.
func (t *Tx) MoveTaskNext(ctx context.Context, id string, from, next time.Time) (Task, error) {
	task, err := scanTask(t.tx.QueryRowContext(ctx, "UPDATE tasks SET next_run_at = ? "+
		"WHERE id = ? AND paused = 0 AND next_run_at = ? RETURNING "+taskColumns,
		optMillis(next), id, from.UnixMilli()))
	if err != nil {
		return Task{}, fmt.Errorf("move task %s: %w", id, notFound(err))
	}
	return task, nil
}

// Task returns one task, or ErrNotFound.
func (s *Store) Task(ctx context.Context, id string) (Task, error) {
	t, err := scanTask(s.db.QueryRowContext(ctx, "SELECT "+taskColumns+" FROM tasks WHERE id = ?", id))
	if err != nil {
		return Task{}, fmt.Errorf("load task %s: %w", id, notFound(err))
	}
	return t, nil
}

// Task returns one task in the transaction, or ErrNotFound.
func (t *Tx) Task(ctx context.Context, id string) (Task, error) {
	task, err := scanTask(t.tx.QueryRowContext(ctx, "SELECT "+taskColumns+" FROM tasks WHERE id = ?", id))
	if err != nil {
		return Task{}, fmt.Errorf("load task %s: %w", id, notFound(err))
	}
	return task, nil
}

// Tasks lists every task: by next run (the soonest first), then those with none
// and the paused ones.
func (s *Store) Tasks(ctx context.Context) ([]Task, error) {
	return queryAll(ctx, s.db, "list tasks", scanTask, "SELECT "+taskColumns+
		" FROM tasks ORDER BY paused, next_run_at IS NULL, next_run_at, created_at, id")
}

// CountTasks is how many tasks there are.
func (s *Store) CountTasks(ctx context.Context) (int, error) {
	var n int
	if err := s.db.QueryRowContext(ctx, "SELECT count(*) FROM tasks").Scan(&n); err != nil {
		return 0, fmt.Errorf("count tasks: %w", err)
	}
	return n, nil
}

// DeleteTask deletes a task and its runs' records; ErrNotFound when it does not
// exist.
func (s *Store) DeleteTask(ctx context.Context, id string) error {
	res, err := s.db.ExecContext(ctx, "DELETE FROM tasks WHERE id = ?", id)
	if err != nil {
		return fmt.Errorf("delete task %s: %w", id, err)
	}
	if err := mustAffect(res); err != nil {
		return fmt.Errorf("delete task %s: %w", id, err)
	}
	return nil
}

// DueTasks lists up to limit tasks not paused whose next run is at or before now,
// the most overdue first.
func (s *Store) DueTasks(ctx context.Context, now time.Time, limit int) ([]Task, error) {
	return queryAll(ctx, s.db, "due tasks", scanTask, "SELECT "+taskColumns+
		" FROM tasks WHERE next_run_at IS NOT NULL AND paused = 0 AND next_run_at <= ? ORDER BY next_run_at, id LIMIT ?",
		now.UnixMilli(), sqlLimit(limit))
}

// NextTaskAt is the soonest next run of a task not paused; false when none is due.
func (s *Store) NextTaskAt(ctx context.Context) (time.Time, bool, error) {
	var at sql.NullInt64
	err := s.db.QueryRowContext(ctx, "SELECT min(next_run_at) FROM tasks WHERE next_run_at IS NOT NULL AND paused = 0").Scan(&at)
	if err != nil {
		return time.Time{}, false, fmt.Errorf("next task: %w", err)
	}
	return fromOptMillis(at), at.Valid, nil
}

// ClaimTaskRun records the run of a task's slot: ErrSlotTaken when the slot was
// claimed before, ErrNotFound when the task is gone. It belongs in the transaction
// that saves the run's user message and record, so both or neither are saved.
func (t *Tx) ClaimTaskRun(ctx context.Context, r TaskRun) error { return addTaskRun(ctx, t.tx, r) }

// AddTaskRun records a run that did not start (a skipped or failed slot), claiming
// its slot like ClaimTaskRun.
func (s *Store) AddTaskRun(ctx context.Context, r TaskRun) error { return addTaskRun(ctx, s.db, r) }

// AddTaskRun records a run in the transaction (see Store.AddTaskRun).
func (t *Tx) AddTaskRun(ctx context.Context, r TaskRun) error { return addTaskRun(ctx, t.tx, r) }

func addTaskRun(ctx context.Context, db querier, r TaskRun) error {
	if err := requireTime("started at", r.StartedAt); err != nil {
		return fmt.Errorf("claim task %s slot: %w", r.TaskID, err)
	}
	_, err := db.ExecContext(ctx, "INSERT INTO task_runs ("+taskRunColumns+") VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
		r.TaskID, r.Slot.UnixMilli(), optText(r.RunID), r.Manual, r.StartedAt.UnixMilli(), r.Status, r.Result, r.Error)
	var se sqlite3.Error
	if errors.As(err, &se) && (se.ExtendedCode == sqlite3.ErrConstraintPrimaryKey || se.ExtendedCode == sqlite3.ErrConstraintUnique) {
		return fmt.Errorf("claim task %s slot %d: %w", r.TaskID, r.Slot.UnixMilli(), ErrSlotTaken)
	}
	if err != nil {
		return fmt.Errorf("claim task %s slot: %w", r.TaskID, notFound(err))
	}
	return nil
}

// SetTaskRunStatus records how a task's run stands; ErrNotFound when no task run
// has that run id.
func (s *Store) SetTaskRunStatus(ctx context.Context, runID, status, result, errText string) (TaskRun, error) {
	r, err := scanTaskRun(s.db.QueryRowContext(ctx,
		"UPDATE task_runs SET status = ?, result = ?, error = ? WHERE run_id = ? RETURNING "+taskRunColumns,
		status, result, errText, runID))
	if err != nil {
		return TaskRun{}, fmt.Errorf("set task run %s: %w", runID, notFound(err))
	}
	return r, nil
}

// TaskRunOf is the task run of a chat run, or ErrNotFound when the run is no task's.
func (s *Store) TaskRunOf(ctx context.Context, runID string) (TaskRun, error) {
	r, err := scanTaskRun(s.db.QueryRowContext(ctx, "SELECT "+taskRunColumns+" FROM task_runs WHERE run_id = ?", runID))
	if err != nil {
		return TaskRun{}, fmt.Errorf("load task run %s: %w", runID, notFound(err))
	}
	return r, nil
}

// LastTaskRun is a task's latest run; false when it never ran.
func (s *Store) LastTaskRun(ctx context.Context, taskID string) (TaskRun, bool, error) {
	r, err := scanTaskRun(s.db.QueryRowContext(ctx, "SELECT "+taskRunColumns+
		" FROM task_runs WHERE task_id = ? ORDER BY started_at DESC, slot DESC LIMIT 1", taskID))
	if errors.Is(err, sql.ErrNoRows) {
		return TaskRun{}, false, nil
	}
	if err != nil {
		return TaskRun{}, false, fmt.Errorf("last run of task %s: %w", taskID, err)
	}
	return r, true, nil
}

// OpenTaskRuns lists the task runs still running or paused, oldest first: after a
// start, each is followed again.
func (s *Store) OpenTaskRuns(ctx context.Context) ([]TaskRun, error) {
	return queryAll(ctx, s.db, "open task runs", scanTaskRun, "SELECT "+taskRunColumns+
		" FROM task_runs WHERE status IN ('running', 'paused') ORDER BY started_at, task_id")
}
