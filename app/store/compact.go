package store

import (
	"context"
	"fmt"
)

// Merged is a run of a log's events replaced by one: the events numbered From to
// Row.Seq give way to Row.
type Merged struct {
	From int64
	Row  RunEvent
}

// CompactRun replaces, in one transaction, each merged stretch of a run's log by its
// one event, and marks the run compacted. A run that is still live is refused.
func (s *Store) CompactRun(ctx context.Context, runID string, merged []Merged) error {
	return s.InTx(ctx, func(t *Tx) error {
		var status string
		if err := t.tx.QueryRowContext(ctx, "SELECT status FROM runs WHERE id = ?", runID).Scan(&status); err != nil {
			return fmt.Errorf("compact run %s: %w", runID, notFound(err))
		}
		if status == RunActive || status == RunPaused {
			return fmt.Errorf("compact run %s: it is still %s", runID, status)
		}
		for _, m := range merged {
			r := m.Row
			if r.RunID != runID || m.From > r.Seq {
				return fmt.Errorf("compact run %s: bad stretch %d..%d of run %s", runID, m.From, r.Seq, r.RunID)
			}
			if _, err := t.tx.ExecContext(ctx, "DELETE FROM run_events WHERE run_id = ? AND seq BETWEEN ? AND ?", runID, m.From, r.Seq); err != nil {
				return fmt.Errorf("compact run %s: %w", runID, err)
			}
			if _, err := t.tx.ExecContext(ctx, insertRunEventsSQL(1), r.RunID, r.Seq, r.Type, string(r.Data), r.Time.UnixMilli()); err != nil {
				return fmt.Errorf("compact run %s: %w", runID, err)
			}
		}
		if _, err := t.tx.ExecContext(ctx, "UPDATE runs SET compacted = 1 WHERE id = ?", runID); err != nil {
			return fmt.Errorf("compact run %s: %w", runID, err)
		}
		return nil
	})
}

// RunsToCompact lists up to limit runs that have ended and whose logs are not yet
// compacted, oldest first.
func (s *Store) RunsToCompact(ctx context.Context, limit int) ([]string, error) {
	return queryAll(ctx, s.db, "list runs to compact", func(r scanner) (string, error) {
		var id string
		return id, r.Scan(&id)
	}, "SELECT id FROM runs WHERE compacted = 0 AND status NOT IN ('active', 'paused') ORDER BY ended_at, id LIMIT ?", sqlLimit(limit))
}
