package main

import (
	"context"
	"database/sql"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
)

// walState is what the valid part of a SQLite write-ahead log holds.
type walState struct {
	salt1   uint32 // changes whenever the log restarts from its first frame
	commits int    // frames that end a transaction
}

// readWAL counts the commit frames of the WAL file at path: the frames after
// the 32-byte header whose salts match the header's (older frames left over
// from before a restart carry other salts and end the valid part), and whose
// "database size after commit" field is non-zero.
func readWAL(path string) (walState, error) {
	var st walState
	f, err := os.Open(path)
	if err != nil {
		return st, err
	}
	defer f.Close()
	hdr := make([]byte, 32)
	if _, err := io.ReadFull(f, hdr); err != nil {
		return st, fmt.Errorf("wal header: %w", err)
	}
	if magic := binary.BigEndian.Uint32(hdr); magic&^1 != 0x377f0682 {
		return st, fmt.Errorf("%s is not a SQLite WAL file", path)
	}
	pageSize := int64(binary.BigEndian.Uint32(hdr[8:]))
	if pageSize == 1 {
		pageSize = 65536
	}
	st.salt1 = binary.BigEndian.Uint32(hdr[16:])
	salt2 := binary.BigEndian.Uint32(hdr[20:])
	frame := make([]byte, 24)
	for off := int64(32); ; off += 24 + pageSize {
		if _, err := f.ReadAt(frame, off); err != nil {
			if errors.Is(err, io.EOF) {
				return st, nil
			}
			return st, err
		}
		if binary.BigEndian.Uint32(frame[8:]) != st.salt1 || binary.BigEndian.Uint32(frame[12:]) != salt2 {
			return st, nil
		}
		if binary.BigEndian.Uint32(frame[4:]) != 0 {
			st.commits++
		}
	}
}

// walPin holds a read transaction open on a database so that SQLite can
// neither restart nor fully checkpoint its WAL: every commit made while it
// is held stays countable in the file.
type walPin struct {
	db   *sql.DB
	conn *sql.Conn
}

func pinWAL(ctx context.Context, dbPath string) (*walPin, error) {
	db, err := sql.Open("sqlite3", "file:"+(&url.URL{Path: dbPath}).EscapedPath()+"?mode=ro")
	if err != nil {
		return nil, err
	}
	conn, err := db.Conn(ctx)
	if err != nil {
		db.Close()
		return nil, err
	}
	var n int
	if _, err = conn.ExecContext(ctx, "BEGIN"); err == nil {
		err = conn.QueryRowContext(ctx, "SELECT count(*) FROM run_events").Scan(&n)
	}
	if err != nil {
		conn.Close()
		db.Close()
		return nil, fmt.Errorf("pin wal: %w", err)
	}
	return &walPin{db: db, conn: conn}, nil
}

func (p *walPin) release() {
	_, _ = p.conn.ExecContext(context.Background(), "ROLLBACK")
	p.conn.Close()
	p.db.Close()
}

// countCommits runs fn with the WAL pinned and returns how many transactions
// were committed to the database meanwhile, by anyone.
func countCommits(ctx context.Context, dbPath string, fn func() error) (int, error) {
	pin, err := pinWAL(ctx, dbPath)
	if err != nil {
		return 0, err
	}
	defer pin.release()
	before, err := readWAL(dbPath + "-wal")
	if err != nil {
		return 0, err
	}
	if err := fn(); err != nil {
		return 0, err
	}
	after, err := readWAL(dbPath + "-wal")
	if err != nil {
		return 0, err
	}
	if after.salt1 != before.salt1 {
		return 0, errors.New("the WAL restarted while pinned; commits not countable")
	}
	return after.commits - before.commits, nil
}
