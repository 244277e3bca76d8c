package main

import (
	"context"
	"database/sql"
	"fmt"
	"net/url"
	"strconv"
	"time"

	_ "github.com/mattn/go-sqlite3" // the driver app/store uses
)

// dsnParams are app/store's connection settings (WAL, synchronous=NORMAL,
// immediate write transactions, foreign keys), repeated here because they
// are unexported there. Keep the two in step.
const dsnParams = "_journal_mode=WAL&_busy_timeout=5000&_foreign_keys=on&_txlock=immediate&_synchronous=NORMAL"

// floorSchema is run_events as app/store creates it, with a minimal parent
// table so the foreign key is checked on every insert as in Wisp.
const floorSchema = `
CREATE TABLE IF NOT EXISTS runs (id TEXT PRIMARY KEY) STRICT;
CREATE TABLE IF NOT EXISTS run_events (
	run_id TEXT    NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
	seq    INTEGER NOT NULL,
	type   TEXT    NOT NULL,
	data   TEXT    NOT NULL,
	ts     INTEGER NOT NULL,
	PRIMARY KEY (run_id, seq)
) STRICT, WITHOUT ROWID;`

// sqliteFloor is the physical floor for persistence: plain INSERTs of rows
// shaped like Wisp's token events into a database opened like Wisp's.
type sqliteFloor struct {
	db   *sql.DB
	data []string // one row's data per chunk: {"text":"<chunk>"}
	runs int
}

func openSQLiteFloor(ctx context.Context, path string, long []string) (*sqliteFloor, error) {
	db, err := sql.Open("sqlite3", "file:"+(&url.URL{Path: path}).EscapedPath()+"?"+dsnParams)
	if err != nil {
		return nil, err
	}
	if _, err := db.ExecContext(ctx, floorSchema); err != nil {
		db.Close()
		return nil, fmt.Errorf("sqlite floor: schema: %w", err)
	}
	f := &sqliteFloor{db: db}
	for _, c := range long {
		f.data = append(f.data, `{"text":"`+c+`"}`)
	}
	return f, nil
}

func (f *sqliteFloor) close() error { return f.db.Close() }

// insert saves one new run's rows, batch rows per transaction, each row with
// its own INSERT of a prepared statement, and returns the rows per second.
func (f *sqliteFloor) insert(ctx context.Context, batch int) (float64, error) {
	f.runs++
	runID := "floor-" + strconv.Itoa(f.runs)
	if _, err := f.db.ExecContext(ctx, "INSERT INTO runs (id) VALUES (?)", runID); err != nil {
		return 0, err
	}
	start := time.Now()
	for i := 0; i < len(f.data); i += batch {
		if err := f.insertBatch(ctx, runID, i, min(i+batch, len(f.data))); err != nil {
			return 0, fmt.Errorf("sqlite floor: %w", err)
		}
	}
	return float64(len(f.data)) / time.Since(start).Seconds(), nil
}

func (f *sqliteFloor) insertBatch(ctx context.Context, runID string, from, to int) error {
	tx, err := f.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	stmt, err := tx.PrepareContext(ctx, "INSERT INTO run_events (run_id, seq, type, data, ts) VALUES (?, ?, ?, ?, ?)")
	if err != nil {
		return err
	}
	defer stmt.Close()
	for i := from; i < to; i++ {
		if _, err := stmt.ExecContext(ctx, runID, i+1, "text_delta", f.data[i], time.Now().UnixMilli()); err != nil {
			return err
		}
	}
	return tx.Commit()
}
