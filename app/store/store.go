// Package store owns Wisp's SQLite database: opening it with safe settings, the
// numbered schema migrations, and one repository file per kind of record.
//
// It knows nothing of HTTP or WebSocket; callers hand it plain values.
package store

import (
	"context"
	"database/sql"
	"fmt"
	"net/url"
	"os"
	"path/filepath"

	_ "github.com/mattn/go-sqlite3" // registers the "sqlite3" driver
)

// Store is an open Wisp database.
type Store struct {
	db *sql.DB
}

// dsnParams are the settings every connection gets: write-ahead log, a busy timeout
// instead of SQLITE_BUSY errors, enforced foreign keys, writers that take the lock up
// front, and synchronous=NORMAL (durable across application crashes; WAL keeps the
// database consistent across power loss).
const dsnParams = "_journal_mode=WAL&_busy_timeout=5000&_foreign_keys=on&_txlock=immediate&_synchronous=NORMAL"

// Open opens (creating if needed) the database at path and migrates it to the
// current schema.
func Open(ctx context.Context, path string) (*Store, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("create database folder: %w", err)
	}
	// Create the file private first: SQLite gives the -wal and -shm files its mode.
	if f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600); err == nil {
		f.Close()
	}
	dsn := "file:" + (&url.URL{Path: path}).EscapedPath() + "?" + dsnParams
	db, err := sql.Open("sqlite3", dsn)
	if err != nil {
		return nil, fmt.Errorf("open database: %w", err)
	}
	if err := requireFTS5(ctx, db); err != nil {
		db.Close()
		return nil, err
	}
	s := &Store{db: db}
	if err := s.migrate(ctx, migrations); err != nil {
		db.Close()
		return nil, err
	}
	if err := os.Chmod(path, 0o600); err != nil {
		db.Close()
		return nil, fmt.Errorf("protect database: %w", err)
	}
	return s, nil
}

// Close checkpoints the write-ahead log and closes the database.
func (s *Store) Close() error {
	_, _ = s.db.Exec("PRAGMA wal_checkpoint(TRUNCATE)")
	return s.db.Close()
}
