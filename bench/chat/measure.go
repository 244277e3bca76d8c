package main

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"os"
	"strings"
	"time"

	"github.com/wispapp/wisp/bench/benchkit"
)

// results are every sample of one run of the driver.
type results struct {
	env benchkit.Env
	cfg config

	firstWisp, firstFloor []float64 // ms, request → first token frame

	wispTPS  []float64 // token frames/s through one Wisp stream
	sseFPS   []float64 // frames/s, floor SSE server
	sqlOne   []float64 // rows/s, one row per commit
	sqlBatch []float64 // rows/s, cfg.batch rows per commit
	fakeCPS  []float64 // chunks/s, the fake model read directly
	modelDPS []float64 // text deltas/s, the fake model through Wisp's model client

	commitsLong, commitsShort int    // transactions during one long / short stream
	commitsNote               string // why they could not be counted, if so

	checked  int      // Wisp streams whose frames and rows were checked
	problems []string // correctness failures
}

// streamed is what a Wisp stream showed, to compare with the database later.
type streamed struct {
	runID  string
	frames int
	lastID int64
	text   string // the reply asked for: the joined chunks
}

type bench struct {
	cfg      config
	w        *wisp
	floor    *floorServer
	sqlite   *sqliteFloor
	long     []string
	longText string
	res      *results
	streams  []streamed
}

// check records a Wisp stream and any way it differs from what was asked.
func (b *bench) check(s seen, chunks []string) {
	want := strings.Join(chunks, "")
	b.streams = append(b.streams, streamed{s.runID, s.frames, s.lastID, want})
	switch {
	case s.failure != "":
		b.problem("run %s failed: %s", s.runID, s.failure)
	case !s.done:
		b.problem("run %s: no done frame", s.runID)
	case s.tokens != len(chunks):
		b.problem("run %s: %d token frames for %d chunks", s.runID, s.tokens, len(chunks))
	case s.fullText != want:
		b.problem("run %s: done fullText (%d bytes) differs from the joined chunks (%d bytes)", s.runID, len(s.fullText), len(want))
	}
}

func (b *bench) problem(format string, a ...any) {
	b.res.problems = append(b.res.problems, fmt.Sprintf(format, a...))
}

// firstToken measures request → first token frame, Wisp and the floor taking
// turns (the first of each pair alternating), after unrecorded warm-up runs.
func (b *bench) firstToken(ctx context.Context) error {
	for i := -b.cfg.warmup; i < b.cfg.runs; i++ {
		var ws, fs seen
		wispRun := func() (err error) {
			ws, err = b.w.sendNew(ctx, "hello")
			return err
		}
		floorRun := func() (err error) {
			fs, err = stream(ctx, b.w.client, b.floor.url+"/first", []byte(`{"text":"hello"}`))
			return err
		}
		order := []func() error{wispRun, floorRun}
		if i%2 != 0 {
			order[0], order[1] = floorRun, wispRun
		}
		for _, fn := range order {
			if err := fn(); err != nil {
				return fmt.Errorf("first token: %w", err)
			}
		}
		b.check(ws, shortReply)
		if ws.tokens == 0 || fs.tokens == 0 {
			return errors.New("first token: a stream had no token frame")
		}
		if i >= 0 {
			b.res.firstWisp = append(b.res.firstWisp, ms(ws.firstToken))
			b.res.firstFloor = append(b.res.firstFloor, ms(fs.firstToken))
		}
	}
	return nil
}

// throughput streams the long reply through Wisp and through each floor in
// turn, once unrecorded, then cfg.tputRuns times.
func (b *bench) throughput(ctx context.Context) error {
	n := float64(len(b.long))
	for i := -1; i < b.cfg.tputRuns; i++ {
		ws, err := b.w.sendNew(ctx, throughputPrompt)
		if err != nil {
			return fmt.Errorf("wisp stream: %w", err)
		}
		b.check(ws, b.long)
		fs, err := stream(ctx, b.w.client, b.floor.url+"/stream", []byte(`{"text":"long"}`))
		if err != nil {
			return fmt.Errorf("floor stream: %w", err)
		}
		if fs.tokens != len(b.long) || fs.fullText != b.longText {
			return errors.New("floor stream: frames or fullText differ from the chunks")
		}
		one, err := b.sqlite.insert(ctx, 1)
		if err != nil {
			return err
		}
		batched, err := b.sqlite.insert(ctx, b.cfg.batch)
		if err != nil {
			return err
		}
		fake, err := b.w.fakeAlone(ctx)
		if err != nil {
			return fmt.Errorf("fake model alone: %w", err)
		}
		deltas, took, err := b.w.modelAlone(ctx)
		if err != nil || deltas != len(b.long) {
			return fmt.Errorf("fake model through runtime/llm: %d deltas: %v", deltas, err)
		}
		if i < 0 {
			continue
		}
		r := b.res
		r.wispTPS = append(r.wispTPS, float64(ws.tokens)/ws.final.Seconds())
		r.sseFPS = append(r.sseFPS, float64(fs.tokens)/fs.final.Seconds())
		r.sqlOne = append(r.sqlOne, one)
		r.sqlBatch = append(r.sqlBatch, batched)
		r.fakeCPS = append(r.fakeCPS, n/fake.final.Seconds())
		r.modelDPS = append(r.modelDPS, n/took.Seconds())
		fmt.Fprintf(os.Stderr, "stream %2d/%d: wisp %6.0f tokens/s · sse floor %6.0f frames/s · sqlite %6.0f / %6.0f rows/s · fake %6.0f chunks/s, via runtime/llm %6.0f\n",
			i+1, b.cfg.tputRuns, r.wispTPS[i], r.sseFPS[i], one, batched, r.fakeCPS[i], r.modelDPS[i])
	}
	return nil
}

// groupCommits counts the transactions SQLite committed during one long and
// one short stream (see countCommits); a failure to count is only noted.
func (b *bench) groupCommits(ctx context.Context) {
	count := func(text string, chunks []string) (int, error) {
		var lastErr error
		for range 3 {
			conv, err := b.w.newConversation(ctx) // a fresh commit: the WAL is not empty when pinned
			if err != nil {
				return 0, err
			}
			n, err := countCommits(ctx, b.w.dbPath(), func() error {
				s, err := b.w.send(ctx, conv, text)
				if err == nil {
					b.check(s, chunks)
				}
				return err
			})
			if err == nil {
				return n, nil
			}
			lastErr = err
		}
		return 0, lastErr
	}
	var err error
	if b.res.commitsLong, err = count(throughputPrompt, b.long); err == nil {
		b.res.commitsShort, err = count("hello", shortReply)
	}
	if err != nil {
		b.res.commitsNote = err.Error()
	}
}

// verifyDisk opens the stopped Wisp's database read-only and checks each
// recorded run's log: compacted once the run ended (docs/chat.md), its last
// event numbered like the last frame streamed, and its text events giving back
// the reply.
func (b *bench) verifyDisk(ctx context.Context) error {
	db, err := sql.Open("sqlite3", "file:"+(&url.URL{Path: b.w.dbPath()}).EscapedPath()+"?mode=ro")
	if err != nil {
		return err
	}
	defer db.Close()
	for _, s := range b.streams {
		var compacted bool
		if err := db.QueryRowContext(ctx, "SELECT compacted FROM runs WHERE id = ?", s.runID).Scan(&compacted); err != nil {
			return fmt.Errorf("read run %s: %w", s.runID, err)
		}
		text, rows, lastSeq, err := loggedText(ctx, db, s.runID)
		if err != nil {
			return err
		}
		if !compacted || lastSeq != s.lastID || text != s.text || rows > s.frames {
			b.problem("run %s: %d frames streamed (last id %d); on disk %d rows (last seq %d, compacted %v), their text %d bytes of %d",
				s.runID, s.frames, s.lastID, rows, lastSeq, compacted, len(text), len(s.text))
		}
		b.res.checked++
	}
	return nil
}

// loggedText reads a run's log: its text deltas joined, its row count and its
// last number.
func loggedText(ctx context.Context, db *sql.DB, runID string) (text string, rows int, lastSeq int64, err error) {
	rs, err := db.QueryContext(ctx, "SELECT seq, type, data FROM run_events WHERE run_id = ? ORDER BY seq", runID)
	if err != nil {
		return "", 0, 0, fmt.Errorf("read run events: %w", err)
	}
	defer rs.Close()
	var b strings.Builder
	for rs.Next() {
		var typ string
		var data []byte
		if err := rs.Scan(&lastSeq, &typ, &data); err != nil {
			return "", 0, 0, err
		}
		rows++
		if typ == "text_delta" {
			var d struct{ Text string }
			if err := json.Unmarshal(data, &d); err != nil {
				return "", 0, 0, fmt.Errorf("run %s event %d: %w", runID, lastSeq, err)
			}
			b.WriteString(d.Text)
		}
	}
	return b.String(), rows, lastSeq, rs.Err()
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
