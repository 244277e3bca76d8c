// Package store owns Wisp's SQLite database: opening it with safe settings, the
// numbered schema migrations, and one repository file per kind of record.
//
// It knows nothing of HTTP or WebSocket; callers hand it plain values.
package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"

	_ "github.com/mattn/go-sqlite3" // registers the "sqlite3" driver

	"github.com/wispapp/wisp/internal/regular"
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
// current schema. Anything but a regular file at path, or at SQLite's files beside it,
// is refused before SQLite opens anything (see checkFiles).
func Open(ctx context.Context, path string) (*Store, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("create database folder: %w", err)
	}
	if err := checkFiles(path); err != nil {
		return nil, err
	}
	dsn := "file:" + (&url.URL{Path: path}).EscapedPath() + "?" + dsnParams
	db, err := sql.Open("sqlite3", dsn)
	if err != nil {
		return nil, fmt.Errorf("open database: %w", err)
	}
	if err := requireFTS5(ctx, db); err != nil {
		db.Close()
		return nil, fmt.Errorf("open database %s: %w", path, err)
	}
	s := &Store{db: db}
	if err := s.migrate(ctx, migrations); err != nil {
		db.Close()
		return nil, fmt.Errorf("open database %s: %w", path, err)
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

// journalSuffixes name SQLite's files beside a database: the write-ahead log, its
// shared-memory index, and the rollback journal.
var journalSuffixes = []string{"-wal", "-shm", "-journal"}

// checkFiles makes sure the database at path and SQLite's files beside it are regular
// files (or missing), so that SQLite never opens anything else: on a named pipe at the
// rollback journal it would block for ever, one at the write-ahead log it would
// delete, and on the rest it would fail with "disk I/O error" and no path. A missing database is
// made, private: SQLite gives the -wal and -shm files its mode.
//
// A link at path is followed: a user may keep the database on another disk through
// one, and SQLite follows it too and keeps its files beside the link's target, which
// is where they are looked for. A link to nothing is refused rather than a new, empty
// database made at its target (a disk not mounted). SQLite's own files are never
// links (SQLite refuses one too), so those are not followed.
func checkFiles(path string) error {
	f, err := regular.Open(path, os.O_RDWR|os.O_CREATE, 0o600, regular.Follow)
	if err != nil {
		return notRegular(err)
	}
	f.Close()
	target, err := filepath.EvalSymlinks(path) // where SQLite keeps its files
	if err != nil {
		return fmt.Errorf("open database: %w", err)
	}
	for _, suffix := range journalSuffixes {
		if err := regular.Check(target+suffix, regular.NoFollow); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return notRegular(err)
		}
	}
	return nil
}

// notRegular words a refusal of checkFiles.
func notRegular(err error) error {
	var nr *regular.NotRegularError
	if errors.As(err, &nr) {
		return fmt.Errorf("open database: %w: Wisp keeps its database only in regular files", err)
	}
	return fmt.Errorf("open database: %w", err)
}
