package store

import (
	"context"
	"fmt"
)

// migrations are applied in order; migration i brings the schema to user_version i+1.
// Never edit a released migration: add a new one.
var migrations = []string{
	// 1: the /ws envelope journal, so replay and event numbering survive a restart.
	`CREATE TABLE stream_events (
		id   INTEGER PRIMARY KEY,
		type TEXT    NOT NULL,
		ts   INTEGER NOT NULL,
		data BLOB    NOT NULL
	) STRICT;`,
}

// SchemaVersion is the version a fully migrated database has.
func SchemaVersion() int { return len(migrations) }

func (s *Store) migrate(ctx context.Context, steps []string) error {
	var version int
	if err := s.db.QueryRowContext(ctx, "PRAGMA user_version").Scan(&version); err != nil {
		return fmt.Errorf("read schema version: %w", err)
	}
	if version > len(steps) {
		return fmt.Errorf("database schema version %d is newer than this Wisp (%d): upgrade Wisp", version, len(steps))
	}
	for i := version; i < len(steps); i++ {
		if err := s.applyMigration(ctx, i+1, steps[i]); err != nil {
			return err
		}
	}
	return nil
}

func (s *Store) applyMigration(ctx context.Context, version int, stmt string) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("migration %d: %w", version, err)
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, stmt); err != nil {
		return fmt.Errorf("migration %d: %w", version, err)
	}
	if _, err := tx.ExecContext(ctx, fmt.Sprintf("PRAGMA user_version = %d", version)); err != nil {
		return fmt.Errorf("migration %d: %w", version, err)
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("migration %d: %w", version, err)
	}
	return nil
}
