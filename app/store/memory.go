package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// Memory version sources: who made a change.
const (
	MemoryByUser  = "user"
	MemoryByAgent = "agent"
	MemoryByUndo  = "undo"
)

// ErrStale reports a change of the memory based on a version that is no longer the
// newest.
var ErrStale = errors.New("stale version")

// MemoryVersion is one version of a character's memory: its whole text. Restores,
// for an undo, is the version whose text it brought back (0: the empty memory).
type MemoryVersion struct {
	Character string
	Version   int
	Text      string
	Source    string
	Restores  *int
	CreatedAt time.Time
}

const memoryColumns = "character, version, text, source, restores, created_at"

// LatestMemory is the newest version of a character's memory; ErrNotFound when it
// was never written.
func (s *Store) LatestMemory(ctx context.Context, character string) (MemoryVersion, error) {
	v, err := scanMemory(s.db.QueryRowContext(ctx, "SELECT "+memoryColumns+
		" FROM memory_versions WHERE character = ? ORDER BY version DESC LIMIT 1", character))
	if err != nil {
		return MemoryVersion{}, fmt.Errorf("load memory of %q: %w", character, notFound(err))
	}
	return v, nil
}

// MemoryAt is one version of a character's memory, or ErrNotFound (never written,
// or dropped as too old).
func (s *Store) MemoryAt(ctx context.Context, character string, version int) (MemoryVersion, error) {
	v, err := scanMemory(s.db.QueryRowContext(ctx, "SELECT "+memoryColumns+
		" FROM memory_versions WHERE character = ? AND version = ?", character, version))
	if err != nil {
		return MemoryVersion{}, fmt.Errorf("load memory of %q version %d: %w", character, version, notFound(err))
	}
	return v, nil
}

// MemoryHistory lists the newest limit versions of a character's memory, newest first.
func (s *Store) MemoryHistory(ctx context.Context, character string, limit int) ([]MemoryVersion, error) {
	return queryAll(ctx, s.db, "list memory versions", scanMemory, "SELECT "+memoryColumns+
		" FROM memory_versions WHERE character = ? ORDER BY version DESC LIMIT ?", character, limit)
}

// AddMemory saves v as the next version of its character's memory and drops all but
// the newest keep versions, in one transaction. With base >= 0 the newest version
// must be base (0: never written), else ErrStale and nothing changes. It returns the
// version saved.
func (s *Store) AddMemory(ctx context.Context, v MemoryVersion, base, keep int) (MemoryVersion, error) {
	if err := requireTime("created at", v.CreatedAt); err != nil {
		return MemoryVersion{}, fmt.Errorf("add memory of %q: %w", v.Character, err)
	}
	err := s.InTx(ctx, func(t *Tx) error {
		var newest int
		if err := t.tx.QueryRowContext(ctx, "SELECT coalesce(max(version), 0) FROM memory_versions WHERE character = ?",
			v.Character).Scan(&newest); err != nil {
			return err
		}
		if base >= 0 && newest != base {
			return ErrStale
		}
		v.Version = newest + 1
		var restores any
		if v.Restores != nil {
			restores = *v.Restores
		}
		if _, err := t.tx.ExecContext(ctx, "INSERT INTO memory_versions ("+memoryColumns+") VALUES (?, ?, ?, ?, ?, ?)",
			v.Character, v.Version, v.Text, v.Source, restores, v.CreatedAt.UnixMilli()); err != nil {
			return err
		}
		_, err := t.tx.ExecContext(ctx, "DELETE FROM memory_versions WHERE character = ? AND version <= ?",
			v.Character, v.Version-max(keep, 1))
		return err
	})
	if err != nil {
		return MemoryVersion{}, fmt.Errorf("add memory of %q: %w", v.Character, err)
	}
	return v, nil
}

func scanMemory(r scanner) (MemoryVersion, error) {
	var v MemoryVersion
	var restores sql.NullInt64
	var created int64
	if err := r.Scan(&v.Character, &v.Version, &v.Text, &v.Source, &restores, &created); err != nil {
		return MemoryVersion{}, err
	}
	if restores.Valid {
		n := int(restores.Int64)
		v.Restores = &n
	}
	v.CreatedAt = time.UnixMilli(created)
	return v, nil
}
