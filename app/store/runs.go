package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// Run statuses. A run is live while active or paused; the others are final.
const (
	RunActive      = "active"
	RunPaused      = "paused"
	RunEnded       = "ended"
	RunFailed      = "failed"
	RunInterrupted = "interrupted"
)

// ErrRunFinished reports an EndRun on a run that has already ended.
var ErrRunFinished = errors.New("run already finished")

// Run is one agent turn. An ephemeral run has no ConversationID.
type Run struct {
	ID, ConversationID, UserMessageID, Status, Error string

	StartedAt time.Time
	EndedAt   time.Time // zero while the run is live
	// Compacted is set once the run's log has been folded (CompactRun).
	Compacted bool
}

const runColumns = "id, conversation_id, user_message_id, status, error, started_at, ended_at, compacted"

// CreateRun saves a new run; an empty Status means active. ErrNotFound if its
// conversation does not exist.
func (s *Store) CreateRun(ctx context.Context, r Run) error {
	return createRun(ctx, s.db, r)
}

func createRun(ctx context.Context, q querier, r Run) error {
	if r.Status == "" {
		r.Status = RunActive
	}
	if err := requireTime("started at", r.StartedAt); err != nil {
		return fmt.Errorf("create run %s: %w", r.ID, err)
	}
	_, err := q.ExecContext(ctx, "INSERT INTO runs ("+runColumns+") VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
		r.ID, optText(r.ConversationID), optText(r.UserMessageID), r.Status, optText(r.Error),
		r.StartedAt.UnixMilli(), optMillis(r.EndedAt), r.Compacted)
	if err != nil {
		return fmt.Errorf("create run %s: %w", r.ID, notFound(err))
	}
	return nil
}

// Run returns one run, or ErrNotFound.
func (s *Store) Run(ctx context.Context, id string) (Run, error) {
	r, err := scanRun(s.db.QueryRowContext(ctx, "SELECT "+runColumns+" FROM runs WHERE id = ?", id))
	if err != nil {
		return Run{}, fmt.Errorf("load run %s: %w", id, notFound(err))
	}
	return r, nil
}

// EndRun finishes a live run with a final status (ended, failed or interrupted), an
// optional error and its end time and, when reply is not nil, saves the reply in the
// same transaction: either both happen or neither. The reply's role defaults to
// assistant, its conversation and run to the run's, and its time to at. The reply
// follows the run's user message U (see saveReplyTx). ErrNotFound if the run does
// not exist, ErrRunFinished if it is not live.
func (s *Store) EndRun(ctx context.Context, id, status, errMsg string, at time.Time, reply *Message) error {
	switch status {
	case RunEnded, RunFailed, RunInterrupted:
	default:
		return fmt.Errorf("end run %s: %q is not a final status", id, status)
	}
	if err := requireTime("end time", at); err != nil {
		return fmt.Errorf("end run %s: %w", id, err)
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("end run %s: %w", id, err)
	}
	defer tx.Rollback()
	var conversationID, userMessageID sql.NullString
	err = tx.QueryRowContext(ctx, `UPDATE runs SET status = ?, error = ?, ended_at = ?
		WHERE id = ? AND status IN ('active', 'paused') RETURNING conversation_id, user_message_id`,
		status, optText(errMsg), at.UnixMilli(), id).Scan(&conversationID, &userMessageID)
	if errors.Is(err, sql.ErrNoRows) {
		return whyNotLiveTx(ctx, tx, id)
	}
	if err != nil {
		return fmt.Errorf("end run %s: %w", id, err)
	}
	if reply != nil {
		m := *reply
		if m.Role == "" {
			m.Role = "assistant"
		}
		if m.ConversationID == "" {
			m.ConversationID = conversationID.String
		}
		if m.RunID == "" {
			m.RunID = id
		}
		if m.CreatedAt.IsZero() {
			m.CreatedAt = at
		}
		if err := saveReplyTx(ctx, tx, m, userMessageID.String); err != nil {
			return fmt.Errorf("end run %s: %w", id, err)
		}
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("end run %s: %w", id, err)
	}
	return nil
}

// SetRunStatus moves a live run between active and paused; ErrRunFinished if it is
// not live, ErrNotFound if there is none.
func (s *Store) SetRunStatus(ctx context.Context, id, status string) error {
	if status != RunActive && status != RunPaused {
		return fmt.Errorf("set run %s status: %q is not a live status", id, status)
	}
	res, err := s.db.ExecContext(ctx, "UPDATE runs SET status = ? WHERE id = ? AND status IN ('active', 'paused')", status, id)
	if err != nil {
		return fmt.Errorf("set run %s status: %w", id, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		if _, err := s.Run(ctx, id); err != nil {
			return err
		}
		return fmt.Errorf("set run %s status: %w", id, ErrRunFinished)
	}
	return nil
}

// whyNotLiveTx explains why a run could not be ended.
func whyNotLiveTx(ctx context.Context, tx *sql.Tx, id string) error {
	var status string
	err := tx.QueryRowContext(ctx, "SELECT status FROM runs WHERE id = ?", id).Scan(&status)
	if err != nil {
		return fmt.Errorf("end run %s: %w", id, notFound(err))
	}
	return fmt.Errorf("end run %s: %w (%s)", id, ErrRunFinished, status)
}

// ActiveRuns lists the live (active or paused) runs, oldest first: after a restart
// these are the runs that were cut off.
func (s *Store) ActiveRuns(ctx context.Context) ([]Run, error) {
	return queryAll(ctx, s.db, "list active runs", scanRun,
		"SELECT "+runColumns+" FROM runs WHERE status IN ('active', 'paused') ORDER BY started_at, id")
}

func scanRun(r scanner) (Run, error) {
	var run Run
	var conversationID, userMessageID, errMsg sql.NullString
	var started int64
	var ended sql.NullInt64
	if err := r.Scan(&run.ID, &conversationID, &userMessageID, &run.Status, &errMsg, &started, &ended, &run.Compacted); err != nil {
		return Run{}, err
	}
	run.ConversationID, run.UserMessageID, run.Error = conversationID.String, userMessageID.String, errMsg.String
	run.StartedAt, run.EndedAt = time.UnixMilli(started), fromOptMillis(ended)
	return run, nil
}

// saveReplyTx saves a run's reply after the run's user message: when the branch
// shown ends at that message or below it (a proactive message came meanwhile), the
// reply goes at its end and becomes the leaf; else (the run answered a branch not
// shown) it follows the user message and the branch shown stays. A run with no user
// message appends to the branch shown.
func saveReplyTx(ctx context.Context, tx *sql.Tx, m Message, userMessageID string) error {
	if userMessageID == "" {
		_, err := addMessageTx(ctx, tx, m)
		return err
	}
	var leaf sql.NullString
	err := tx.QueryRowContext(ctx, "SELECT active_leaf_id FROM conversations WHERE id = ?", m.ConversationID).Scan(&leaf)
	if err != nil {
		return fmt.Errorf("conversation %s: %w", m.ConversationID, notFound(err))
	}
	below, err := descendsTx(ctx, tx, leaf.String, userMessageID)
	if err != nil {
		return err
	}
	m.ParentID = userMessageID
	if below {
		m.ParentID = leaf.String
	}
	return addChildTx(ctx, tx, &m, below)
}
