package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/wispapp/wisp/app/store"
	"github.com/wispapp/wisp/runtime"
	"github.com/wispapp/wisp/runtime/llm/llmtest"
)

// diskResult is what the run log of cfg.diskReplies replies takes on disk.
type diskResult struct {
	replies, tokens int
	textBytes       int64     // the replies' own text
	after, before   tableStat // run_events compacted (as Wisp left it) and uncompacted
	method          string    // how the table's bytes were counted
	finalData       int64     // of after.data, the final (output) events' JSON, which repeats the reply
	took            time.Duration
}

// measureDisk streams cfg.diskReplies replies through a fresh Wisp (delta
// dialect: the log is the same in both), stops it (which waits for every
// run's log compaction) and sizes run_events; then it rebuilds the logs as they
// were before compaction, one row per token, from the compacted rows' cut
// points, writes them through Wisp's own store (store.AppendRunEvents, in
// group commits of up to 512 rows, as Wisp's log writer does) into a copy of
// the database whose run_events was emptied, and sizes that.
func measureDisk(ctx context.Context, cfg config, tmp string, fake *llmtest.Server, res *results) error {
	start := time.Now()
	d := &res.disk
	d.replies, d.tokens = cfg.diskReplies, cfg.diskTokens
	for _, w := range words(cfg.diskTokens) {
		d.textBytes += int64(len(w) * cfg.diskReplies)
	}
	dir := filepath.Join(tmp, "disk")
	runIDs, err := streamReplies(ctx, cfg, dir, fake, res)
	if err != nil {
		return err
	}
	after := filepath.Join(dir, "wisp.db")
	if d.after, d.method, err = measureTable(ctx, after, "run_events"); err != nil {
		return err
	}
	if d.finalData, err = finalEventBytes(ctx, after); err != nil {
		return err
	}
	logs, err := uncompactedLogs(ctx, after, runIDs, cfg.diskTokens, res)
	if err != nil {
		return err
	}
	before := filepath.Join(tmp, "before.db")
	if err := rewriteLogs(ctx, after, before, logs); err != nil {
		return err
	}
	if d.before, _, err = measureTable(ctx, before, "run_events"); err != nil {
		return err
	}
	d.took = time.Since(start)
	return nil
}

// finalEventBytes sums the logged JSON of the runs' final events.
func finalEventBytes(ctx context.Context, path string) (int64, error) {
	db, err := openRO(path)
	if err != nil {
		return 0, err
	}
	defer db.Close()
	var n int64
	err = db.QueryRowContext(ctx, "SELECT coalesce(sum(length(data)), 0) FROM run_events WHERE type = ?", string(runtime.EventOutput)).Scan(&n)
	return n, err
}

// streamReplies sends the replies, each in a new conversation, checks them and
// returns their runs; Wisp is stopped when it returns.
func streamReplies(ctx context.Context, cfg config, dir string, fake *llmtest.Server, res *results) ([]string, error) {
	w, err := startWisp(ctx, dir, fake)
	if err != nil {
		return nil, err
	}
	want := strings.Join(words(cfg.diskTokens), "")
	var ids []string
	for i := range cfg.diskReplies {
		conv, err := w.newConversation(ctx)
		if err != nil {
			_ = w.stop()
			return nil, err
		}
		sh, err := get(ctx, w.client, w.streamURL(conv, "delta"), fmt.Appendf(nil, `{"text":%q}`, prompt(cfg.diskTokens)), 64<<20)
		if err != nil {
			_ = w.stop()
			return nil, fmt.Errorf("disk reply %d: %w", i+1, err)
		}
		p, err := parseFrames(sh.body.head)
		if err != nil || !p.done || p.doneFull != want || p.folded != want {
			res.problem("disk reply %d (run %s): the stream did not end with the reply (%v)", i+1, sh.runID, err)
		}
		res.checked++
		ids = append(ids, sh.runID)
		fake.ForgetRequests()
	}
	fmt.Fprintf(os.Stderr, "disk: %d replies of %d words streamed; stopping Wisp (it waits for the compactions)\n", cfg.diskReplies, cfg.diskTokens)
	return ids, w.stop()
}

// rewriteLogs copies the database at from to to, empties its run_events (and
// vacuums, so the table starts from nothing) and writes rows into it through
// Wisp's store, in group commits of at most 512 rows of one run.
func rewriteLogs(ctx context.Context, from, to string, rows []store.RunEvent) error {
	if err := copyFile(from, to); err != nil {
		return err
	}
	db, err := openRW(to)
	if err != nil {
		return err
	}
	for _, q := range []string{"DELETE FROM run_events", "VACUUM"} {
		if _, err := db.ExecContext(ctx, q); err != nil {
			db.Close()
			return fmt.Errorf("empty run_events: %w", err)
		}
	}
	db.Close()
	st, err := store.Open(ctx, to)
	if err != nil {
		return err
	}
	for len(rows) > 0 {
		n := 1
		for n < min(len(rows), 512) && rows[n].RunID == rows[0].RunID {
			n++
		}
		if err := st.AppendRunEvents(ctx, rows[:n]); err != nil {
			st.Close()
			return err
		}
		rows = rows[n:]
	}
	return st.Close()
}

func copyFile(from, to string) error {
	in, err := os.Open(from)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.Create(to)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}
