package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"strings"
	"time"
)

// RunEvent is one numbered event of a run (an SSE frame): clients resume a run's
// stream after the last Seq they saw.
type RunEvent struct {
	RunID string
	Seq   int64
	Type  string
	Data  json.RawMessage // required
	Time  time.Time
}

// runEventChunk is how many rows one INSERT carries: one statement per 64 rows saves
// most of the per-statement trips through database/sql and cgo, and 64*5 parameters
// stay far inside SQLite's limit.
const runEventChunk = 64

// runEventRows is an INSERT of runEventChunk rows followed by ", ": its prefixes are
// the INSERTs of fewer rows (see insertRunEventsSQL).
var runEventRows = "INSERT INTO run_events (run_id, seq, type, data, ts) VALUES " +
	strings.Repeat(runEventValues+", ", runEventChunk)

const runEventValues = "(?, ?, ?, ?, ?)"

// insertRunEventsSQL is the INSERT of n (1..runEventChunk) rows, without allocating.
func insertRunEventsSQL(n int) string {
	return runEventRows[:len(runEventRows)-(runEventChunk-n)*len(runEventValues+", ")-len(", ")]
}

// AppendRunEvents saves a batch of events, of one run or several, in one
// transaction: all of them or, on any error (such as a (run, seq) saved before),
// none. ErrNotFound if a run does not exist.
func (s *Store) AppendRunEvents(ctx context.Context, events []RunEvent) error {
	if len(events) == 0 {
		return nil
	}
	for _, e := range events {
		if !json.Valid(e.Data) {
			return fmt.Errorf("save run event %s/%d: data is not valid JSON", e.RunID, e.Seq)
		}
		if err := requireTime("time", e.Time); err != nil {
			return fmt.Errorf("save run event %s/%d: %w", e.RunID, e.Seq, err)
		}
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("save run events: %w", err)
	}
	defer tx.Rollback()
	args := make([]any, 0, 5*min(len(events), runEventChunk))
	var full *sql.Stmt // prepared once per batch, reused for every full chunk
	for len(events) > 0 {
		chunk := events[:min(len(events), runEventChunk)]
		events = events[len(chunk):]
		args = args[:0]
		for _, e := range chunk {
			args = append(args, e.RunID, e.Seq, e.Type, string(e.Data), e.Time.UnixMilli())
		}
		if len(chunk) < runEventChunk {
			_, err = tx.ExecContext(ctx, insertRunEventsSQL(len(chunk)), args...)
		} else {
			if full == nil {
				if full, err = tx.PrepareContext(ctx, insertRunEventsSQL(runEventChunk)); err != nil {
					return fmt.Errorf("save run events: %w", err)
				}
				defer full.Close()
			}
			_, err = full.ExecContext(ctx, args...)
		}
		if err != nil {
			first, last := chunk[0], chunk[len(chunk)-1]
			return fmt.Errorf("save run events %s/%d..%s/%d: %w", first.RunID, first.Seq, last.RunID, last.Seq, notFound(err))
		}
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("save run events: %w", err)
	}
	return nil
}

// RunEvents returns a run's events after afterSeq in order, at most limit of them
// (limit <= 0: all). An unknown run has none.
func (s *Store) RunEvents(ctx context.Context, runID string, afterSeq int64, limit int) ([]RunEvent, error) {
	return queryAll(ctx, s.db, "load run events", scanRunEvent,
		"SELECT run_id, seq, type, data, ts FROM run_events WHERE run_id = ? AND seq > ? ORDER BY seq LIMIT ?",
		runID, afterSeq, sqlLimit(limit))
}

func scanRunEvent(r scanner) (RunEvent, error) {
	var e RunEvent
	var data []byte
	var ts int64
	if err := r.Scan(&e.RunID, &e.Seq, &e.Type, &data, &ts); err != nil {
		return RunEvent{}, err
	}
	e.Data, e.Time = data, time.UnixMilli(ts)
	return e, nil
}
