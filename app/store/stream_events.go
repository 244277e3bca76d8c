package store

import (
	"context"
	"fmt"
)

// StreamEvent is one buffered /ws envelope as stored: its number, type, time and the
// complete JSON frame.
type StreamEvent struct {
	ID   int64
	Type string
	TS   int64
	Data []byte
}

// AppendStreamEvents saves a batch of envelopes in one transaction and prunes all but
// the newest keep rows.
func (s *Store) AppendStreamEvents(ctx context.Context, events []StreamEvent, keep int) error {
	if len(events) == 0 {
		return nil
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("save stream events: %w", err)
	}
	defer tx.Rollback()
	stmt, err := tx.PrepareContext(ctx, "INSERT INTO stream_events (id, type, ts, data) VALUES (?, ?, ?, ?)")
	if err != nil {
		return fmt.Errorf("save stream events: %w", err)
	}
	defer stmt.Close()
	for _, e := range events {
		if _, err := stmt.ExecContext(ctx, e.ID, e.Type, e.TS, e.Data); err != nil {
			return fmt.Errorf("save stream event %d: %w", e.ID, err)
		}
	}
	last := events[len(events)-1].ID
	if _, err := tx.ExecContext(ctx, "DELETE FROM stream_events WHERE id <= ?", last-int64(keep)); err != nil {
		return fmt.Errorf("prune stream events: %w", err)
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("save stream events: %w", err)
	}
	return nil
}

// RecentStreamEvents returns the newest n envelopes, oldest first.
func (s *Store) RecentStreamEvents(ctx context.Context, n int) ([]StreamEvent, error) {
	rows, err := s.db.QueryContext(ctx,
		"SELECT id, type, ts, data FROM (SELECT * FROM stream_events ORDER BY id DESC LIMIT ?) ORDER BY id", n)
	if err != nil {
		return nil, fmt.Errorf("load stream events: %w", err)
	}
	defer rows.Close()
	var out []StreamEvent
	for rows.Next() {
		var e StreamEvent
		if err := rows.Scan(&e.ID, &e.Type, &e.TS, &e.Data); err != nil {
			return nil, fmt.Errorf("load stream events: %w", err)
		}
		out = append(out, e)
	}
	return out, rows.Err()
}
