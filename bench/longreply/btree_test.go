package main

import (
	"context"
	"database/sql"
	"path/filepath"
	"strings"
	"testing"
)

func TestLocalPayload(t *testing.T) {
	for _, tc := range []struct {
		size      int
		tableLeaf bool
		want      int
	}{
		{100, false, 100},
		{1002, false, 1002}, // an index cell's largest local payload at 4,096 usable bytes
		{1003, false, 489},  // K would pass X: M stays local
		{5000, false, 908},  // K = M + (P-M) % (U-4)
		{4061, true, 4061},  // a table leaf's largest
		{4062, true, 489},
	} {
		if got := localPayload(tc.size, 4096, tc.tableLeaf); got != tc.want {
			t.Errorf("localPayload(%d, 4096, %v) = %d, want %d", tc.size, tc.tableLeaf, got, tc.want)
		}
	}
}

func TestSqliteVarint(t *testing.T) {
	for _, tc := range []struct {
		in   []byte
		want uint64
		n    int
	}{
		{[]byte{0x05}, 5, 1},
		{[]byte{0x81, 0x00}, 128, 2},
		{[]byte{0x82, 0x80, 0x01}, 1<<15 | 1, 3},
		{[]byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}, 1<<64 - 1, 9},
		{[]byte{0x81}, 0, 0},
	} {
		if v, n := sqliteVarint(tc.in); v != tc.want || n != tc.n {
			t.Errorf("sqliteVarint(%x) = %d, %d; want %d, %d", tc.in, v, n, tc.want, tc.n)
		}
	}
}

// TestMeasureTable builds a database with a table shaped like run_events
// (without rowid, some cells spilling to overflow pages), an ordinary table
// with an index, and free pages, and checks that the walk accounts for every
// page of the file and sizes the tables sensibly.
func TestMeasureTable(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "t.db")
	db, err := sql.Open("sqlite3", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{
		`CREATE TABLE events (run TEXT NOT NULL, seq INTEGER NOT NULL, data TEXT NOT NULL, PRIMARY KEY (run, seq)) WITHOUT ROWID`,
		`CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT)`,
		`CREATE INDEX notes_body ON notes (body)`,
		`CREATE TABLE tiny (data)`,
		`INSERT INTO tiny VALUES (1)`,
	} {
		if _, err := db.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	tx, err := db.Begin()
	if err != nil {
		t.Fatal(err)
	}
	for i := range 5000 {
		data := `{"text":" word"}`
		if i%100 == 0 {
			data = strings.Repeat("x", 9000) // spills to overflow pages
		}
		if _, err := tx.Exec(`INSERT INTO events VALUES ('run-0123456789', ?, ?)`, i, data); err != nil {
			t.Fatal(err)
		}
		if _, err := tx.Exec(`INSERT INTO notes (body) VALUES (?)`, strings.Repeat("n", i%700)); err != nil {
			t.Fatal(err)
		}
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec("DELETE FROM notes WHERE id > 1000"); err != nil { // leaves free pages
		t.Fatal(err)
	}
	db.Close()

	events, _, err := measureTable(ctx, path, "events")
	if err != nil {
		t.Fatal(err)
	}
	if events.rows != 5000 || events.pages < 50 || events.bytes < events.data || events.payload < events.data {
		t.Errorf("events: %+v: want 5,000 rows in at least 50 pages holding at least their data", events)
	}
	tiny, _, err := measureTable(ctx, path, "tiny")
	if err != nil {
		t.Fatal(err)
	}
	if tiny.pages != 1 || tiny.bytes != 4096 {
		t.Errorf("tiny: %+v: want one page of 4,096 bytes", tiny)
	}
	f, err := openDBFile(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.close()
	if f.freelist == 0 {
		t.Error("no free pages: the accounting was not tested with a freelist")
	}
}
