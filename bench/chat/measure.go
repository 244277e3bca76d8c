package main

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"strings"
	"time"

	"github.com/wispapp/wisp/bench/benchkit"
)

// figures are the samples of one server for one kind of reply.
type figures struct {
	first []float64 // ms, request → first token frame, one per reply
	cpu   []float64 // ms of the server's CPU per reply, one per round
	tps   []float64 // token frames/s from the request to the end, one per reply
}

// results are every sample of one run of the driver.
type results struct {
	env benchkit.Env
	cfg config

	shortWisp, shortRelay, longWisp, longRelay figures

	commitsLong, commitsShort int    // transactions during one long / short stream
	commitsNote               string // why they could not be counted, if so

	checked  int      // Wisp streams whose frames and rows were checked
	problems []string // correctness failures

	loadBefore, loadAfter string // the machine's 1-minute load average around the run
}

// streamed is what a Wisp stream showed, to compare with the database later.
type streamed struct {
	runID  string
	frames int
	lastID int64
	text   string // the reply asked for: the joined chunks
}

type bench struct {
	cfg         config
	wisp, relay *server
	client      *http.Client
	dbPath      string
	long        []string
	res         *results
	streams     []streamed
}

// check records a Wisp stream and any way it differs from what was asked.
func (b *bench) check(s seen, chunks []string) {
	want := strings.Join(chunks, "")
	b.streams = append(b.streams, streamed{s.runID, s.frames, s.lastID, want})
	b.checkFrames("run "+s.runID, s, chunks)
}

// checkFrames records any way a stream's frames differ from the chunks asked for.
func (b *bench) checkFrames(name string, s seen, chunks []string) {
	want := strings.Join(chunks, "")
	switch {
	case s.failure != "":
		b.problem("%s failed: %s", name, s.failure)
	case !s.done:
		b.problem("%s: no done frame", name)
	case s.tokens != len(chunks):
		b.problem("%s: %d token frames for %d chunks", name, s.tokens, len(chunks))
	case s.fullText != want:
		b.problem("%s: done fullText (%d bytes) differs from the joined chunks (%d bytes)", name, len(s.fullText), len(want))
	}
}

func (b *bench) problem(format string, a ...any) {
	b.res.problems = append(b.res.problems, fmt.Sprintf(format, a...))
}

// round is one round of the interleaved measure: each server answers
// cfg.batch short replies, then each answers one long reply, Wisp first in
// even rounds and the relay first in odd ones. Round i < 0 is not recorded.
func (b *bench) round(ctx context.Context, i int) error {
	type turn struct {
		srv         *server
		short, long *figures
	}
	r := b.res
	turns := []turn{{b.wisp, &r.shortWisp, &r.longWisp}, {b.relay, &r.shortRelay, &r.longRelay}}
	if i%2 != 0 {
		turns[0], turns[1] = turns[1], turns[0]
	}
	var sink figures
	for _, t := range turns {
		into := t.short
		if i < 0 {
			into = &sink
		}
		if err := b.replies(ctx, t.srv, b.cfg.batch, "hello", shortReply, into); err != nil {
			return err
		}
	}
	for _, t := range turns {
		into := t.long
		if i < 0 {
			into = &sink
		}
		if err := b.replies(ctx, t.srv, 1, longPrompt, b.long, into); err != nil {
			return err
		}
	}
	if i >= 0 {
		fmt.Fprintf(os.Stderr, "round %2d/%d: short cpu wisp %.2f ms, relay %.2f ms · long cpu wisp %.1f ms, relay %.1f ms\n",
			i+1, b.cfg.rounds, last(r.shortWisp.cpu), last(r.shortRelay.cpu), last(r.longWisp.cpu), last(r.longRelay.cpu))
	}
	return nil
}

// replies has srv answer n replies to text (Wisp: each in a fresh conversation,
// created before the clock starts) and records each reply's first token and
// rate, and the server's CPU from before the first request until it went quiet
// after the last, divided by n.
func (b *bench) replies(ctx context.Context, srv *server, n int, text string, chunks []string, into *figures) error {
	var convs []string
	if srv == b.wisp {
		for range n {
			c, err := b.newConversation(ctx)
			if err != nil {
				return fmt.Errorf("wisp: new conversation: %w", err)
			}
			convs = append(convs, c)
		}
	}
	before, err := srv.settledCPU(ctx)
	if err != nil {
		return err
	}
	for k := range n {
		var s seen
		if srv == b.wisp {
			s, err = b.sendWisp(ctx, convs[k], text)
		} else {
			s, err = b.sendRelay(ctx, text)
		}
		if err != nil {
			return fmt.Errorf("%s: %w", srv.name, err)
		}
		if srv == b.wisp {
			b.check(s, chunks)
		} else {
			b.checkFrames("relay", s, chunks)
		}
		into.first = append(into.first, ms(s.firstToken))
		into.tps = append(into.tps, float64(s.tokens)/s.final.Seconds())
	}
	after, err := srv.settledCPU(ctx)
	if err != nil {
		return err
	}
	into.cpu = append(into.cpu, ms(after-before)/float64(n))
	return nil
}

func last(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	return xs[len(xs)-1]
}

// groupCommits counts the transactions SQLite committed during one long and
// one short stream (see countCommits); a failure to count is only noted.
func (b *bench) groupCommits(ctx context.Context) {
	count := func(text string, chunks []string) (int, error) {
		var lastErr error
		for range 3 {
			conv, err := b.newConversation(ctx) // a fresh commit: the WAL is not empty when pinned
			if err != nil {
				return 0, err
			}
			n, err := countCommits(ctx, b.dbPath, func() error {
				s, err := b.sendWisp(ctx, conv, text)
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
	if b.res.commitsLong, err = count(longPrompt, b.long); err == nil {
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
	db, err := sql.Open("sqlite3", "file:"+(&url.URL{Path: b.dbPath}).EscapedPath()+"?mode=ro")
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
