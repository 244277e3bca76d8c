package main

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/wispapp/wisp/app/store"
	"github.com/wispapp/wisp/bench/benchkit"
)

// bareSQL is the floor: the same match expression, ranked by bm25, the best page of
// 20 with snippets, straight from the FTS5 table through mattn/go-sqlite3.
const bareSQL = `SELECT rowid, snippet(messages_fts, 0, char(57344), char(57345), '…', 16)
	FROM messages_fts WHERE messages_fts MATCH ? ORDER BY rank LIMIT 20`

const pageSize = 20

type results struct {
	wisp, floor     benchkit.Tail
	dbBytes         int64
	built           bool
	buildTook       time.Duration
	matches         []int // per query
	queries, rounds int
}

type bench struct {
	client *http.Client
	base   string
	db     *sql.DB
	stmt   *sql.Stmt
}

func measure(ctx context.Context, tmp string, cfg config) (results, error) {
	var r results
	dbPath, built, took, err := cachedDB(ctx, cfg.cache, cfg.messages)
	if err != nil {
		return r, err
	}
	r.built, r.buildTook = built, took
	if fi, err := os.Stat(dbPath); err == nil {
		r.dbBytes = fi.Size()
	}
	const token = "bench-search-token"
	p, err := startWisp(ctx, cfg.wisp, dbPath, tmp, token)
	if err != nil {
		return r, err
	}
	defer p.stop()
	db, err := sql.Open("sqlite3", "file:"+(&url.URL{Path: filepath.Join(tmp, "state", "wisp.db")}).EscapedPath()+"?mode=ro")
	if err != nil {
		return r, err
	}
	defer db.Close()
	stmt, err := db.PrepareContext(ctx, bareSQL)
	if err != nil {
		return r, fmt.Errorf("the bare query: %w", err)
	}
	defer stmt.Close()
	b := &bench{client: benchkit.WithToken(benchkit.NewHTTPClient(), token), base: p.url, db: db, stmt: stmt}

	qs := queries(corpusSeed, cfg.queries)
	r.queries, r.rounds = len(qs), cfg.rounds
	for _, q := range qs {
		n, err := b.count(ctx, q)
		if err != nil {
			return r, err
		}
		r.matches = append(r.matches, n)
	}
	var wisp, floor []float64
	for round := -cfg.warmup; round < cfg.rounds; round++ {
		for i, q := range qs {
			w, f, err := b.pair(ctx, q, (round+i)%2 == 0)
			if err != nil {
				return r, fmt.Errorf("query %q: %w", q, err)
			}
			if round >= 0 {
				wisp, floor = append(wisp, benchkit.Ms(w)), append(floor, benchkit.Ms(f))
			}
		}
	}
	r.wisp, r.floor = benchkit.TailOf(wisp), benchkit.TailOf(floor)
	return r, nil
}

// pair times q through Wisp and bare, in the order given.
func (b *bench) pair(ctx context.Context, q string, wispFirst bool) (wisp, floor time.Duration, err error) {
	if wispFirst {
		if wisp, err = b.throughWisp(ctx, q); err != nil {
			return 0, 0, err
		}
		floor, err = b.bare(ctx, q)
		return wisp, floor, err
	}
	if floor, err = b.bare(ctx, q); err != nil {
		return 0, 0, err
	}
	wisp, err = b.throughWisp(ctx, q)
	return wisp, floor, err
}

// throughWisp is GET /api/search?q=…&limit=20, from the request to the whole body
// decoded.
func (b *bench) throughWisp(ctx context.Context, q string) (time.Duration, error) {
	start := time.Now()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet,
		b.base+"/api/search?limit="+fmt.Sprint(pageSize)+"&q="+url.QueryEscape(q), nil)
	if err != nil {
		return 0, err
	}
	resp, err := b.client.Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return 0, err
	}
	var out struct {
		Results []struct{ Snippet string }
	}
	if err := json.Unmarshal(body, &out); err != nil || resp.StatusCode != http.StatusOK {
		return 0, fmt.Errorf("GET /api/search: %d %.200s", resp.StatusCode, body)
	}
	took := time.Since(start)
	if len(out.Results) == 0 {
		return 0, fmt.Errorf("no results through Wisp")
	}
	return took, nil
}

// bare runs the floor's query with the match expression Wisp makes of q, reading
// every row.
func (b *bench) bare(ctx context.Context, q string) (time.Duration, error) {
	start := time.Now()
	rows, err := b.stmt.QueryContext(ctx, store.MatchExpr(q))
	if err != nil {
		return 0, err
	}
	defer rows.Close()
	n := 0
	for rows.Next() {
		var id int64
		var snippet string
		if err := rows.Scan(&id, &snippet); err != nil {
			return 0, err
		}
		n++
	}
	if err := rows.Err(); err != nil {
		return 0, err
	}
	took := time.Since(start)
	if n == 0 {
		return 0, fmt.Errorf("no results from the bare query")
	}
	return took, nil
}

// count is how many messages match q.
func (b *bench) count(ctx context.Context, q string) (int, error) {
	var n int
	err := b.db.QueryRowContext(ctx, "SELECT count(*) FROM messages_fts WHERE messages_fts MATCH ?", store.MatchExpr(q)).Scan(&n)
	return n, err
}

func medianInt(xs []int) int {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Sorted(slices.Values(xs))
	return s[len(s)/2]
}
