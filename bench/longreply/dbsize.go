package main

import (
	"context"
	"database/sql"
	"fmt"
	"net/url"
	"os"
	"strings"
)

// tableStat is one table's size in a database file.
type tableStat struct {
	bytes   int64 // its pages, as dbstat's SUM(pgsize) counts them
	pages   int
	payload int64 // the bytes of its cells' records
	rows    int64
	data    int64 // SUM(length(data)): the logged JSON alone
	file    int64 // the whole file
}

func openRO(path string) (*sql.DB, error) {
	return sql.Open("sqlite3", "file:"+(&url.URL{Path: path}).EscapedPath()+"?mode=ro")
}

// measureTable sizes table (run_events) in the checkpointed database at path by
// walking its B-tree in the file, after checking that the walk accounts for
// every page of the file. Where dbstat is compiled in it must agree; method
// says which counted.
func measureTable(ctx context.Context, path, table string) (st tableStat, method string, err error) {
	if fi, err := os.Stat(path + "-wal"); err == nil && fi.Size() > 0 {
		return st, "", fmt.Errorf("%s: the write-ahead log is not checkpointed", path)
	}
	db, err := openRO(path)
	if err != nil {
		return st, "", err
	}
	defer db.Close()
	roots, err := rootPages(ctx, db)
	if err != nil {
		return st, "", err
	}
	err = db.QueryRowContext(ctx, "SELECT count(*), coalesce(sum(length(data)), 0) FROM "+table).Scan(&st.rows, &st.data)
	if err != nil {
		return st, "", fmt.Errorf("count %s: %w", table, err)
	}
	f, err := openDBFile(path)
	if err != nil {
		return st, "", err
	}
	defer f.close()
	if err := f.accounted(roots); err != nil {
		return st, "", fmt.Errorf("%s: %w", path, err)
	}
	t, err := f.tree(roots[table])
	if err != nil {
		return st, "", fmt.Errorf("%s: walk %s: %w", path, table, err)
	}
	st.bytes, st.pages, st.payload = t.bytes(f.pageSize), t.pages+t.overflow, t.payload
	st.file = int64(f.pages) * int64(f.pageSize)
	method = "walking its B-tree in the file (dbstat is not in mattn/go-sqlite3's default build)"
	var viaStat int64
	switch err := db.QueryRowContext(ctx, "SELECT coalesce(sum(pgsize), 0) FROM dbstat WHERE name = ?", table).Scan(&viaStat); {
	case err != nil && strings.Contains(err.Error(), "no such table"):
	case err != nil:
		return st, "", fmt.Errorf("dbstat: %w", err)
	case viaStat != st.bytes:
		return st, "", fmt.Errorf("%s: dbstat counts %d bytes, the B-tree walk %d", table, viaStat, st.bytes)
	default:
		method = "dbstat, which the B-tree walk matched"
	}
	return st, method, nil
}

// rootPages maps every table and index of the schema to its root page.
func rootPages(ctx context.Context, db *sql.DB) (map[string]uint32, error) {
	rows, err := db.QueryContext(ctx, "SELECT name, rootpage FROM sqlite_schema WHERE rootpage > 0")
	if err != nil {
		return nil, fmt.Errorf("read schema: %w", err)
	}
	defer rows.Close()
	roots := map[string]uint32{"sqlite_schema": 1}
	for rows.Next() {
		var name string
		var root uint32
		if err := rows.Scan(&name, &root); err != nil {
			return nil, err
		}
		roots[name] = root
	}
	return roots, rows.Err()
}

// accounted checks that the trees rooted at roots and the freelist make up
// every page of the file: the walk reads the file right.
func (d *dbFile) accounted(roots map[string]uint32) error {
	total := d.freelist
	for name, root := range roots {
		t, err := d.tree(root)
		if err != nil {
			return fmt.Errorf("walk %s: %w", name, err)
		}
		total += t.pages + t.overflow
	}
	if total != d.pages {
		return fmt.Errorf("the b-trees and freelist hold %d pages, the file has %d", total, d.pages)
	}
	return nil
}

func openRW(path string) (*sql.DB, error) {
	return sql.Open("sqlite3", "file:"+(&url.URL{Path: path}).EscapedPath())
}
