// Command chat is Wisp's chat benchmark: first-token latency and streaming
// throughput, each next to a physical floor measured in the same run.
//
// It starts a real Wisp App in this process on 127.0.0.1, answered by the
// fake LLM server (runtime/llm/llmtest) with no delay between chunks, and
// measures from one HTTP client:
//
//   - first token: POST /api/conversations/{id}/messages/stream → the first
//     token frame, each run in a fresh conversation, against a bare net/http
//     SSE server that writes one frame and flushes;
//   - throughput: token frames per second through one stream of a long
//     reply, every event persisted to run_events before its frame is sent,
//     against a bare SSE server writing the same frames and against plain
//     SQLite inserts of the same rows (one per commit, and batched).
//
// It also counts, from SQLite's write-ahead log, how many transactions one
// long stream takes (group commits), and checks every Wisp stream: the done
// frame's fullText is the joined chunks, and the run has one row on disk per
// frame streamed.
//
// The result is printed on stdout and, with --out, written between the
// "<!-- bench:chat:begin -->" and "<!-- bench:chat:end -->" markers of
// BENCHMARKS.md; the rest of that file is kept. The exit status is non-zero
// when the harness cannot measure or a check fails; a missed target is
// printed but is not a failure.
//
// Usage (see `make bench`):
//
//	go run ./bench/chat --out BENCHMARKS.md
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/wispapp/wisp/bench/benchkit"
)

type config struct {
	runs, warmup int // first-token runs per server, and unrecorded ones before
	tokens       int // chunks in the long reply
	tputRuns     int // recorded long streams
	batch        int // rows per commit of the batched SQLite floor
	out, profile string
}

func main() {
	var cfg config
	flag.IntVar(&cfg.runs, "runs", 200, "recorded first-token runs per server")
	flag.IntVar(&cfg.warmup, "warmup", 20, "unrecorded first-token runs per server before them")
	flag.IntVar(&cfg.tokens, "tokens", 2000, "one-word chunks in the long reply")
	flag.IntVar(&cfg.tputRuns, "streams", 15, "recorded long streams per measure")
	flag.IntVar(&cfg.batch, "batch", 256, "rows per commit of the batched SQLite floor")
	flag.StringVar(&cfg.out, "out", "", "Markdown file whose chat section is replaced (e.g. BENCHMARKS.md); empty: stdout only")
	flag.StringVar(&cfg.profile, "cpuprofile", "", "write a CPU profile of the whole run (Wisp, floors and client) to this file")
	flag.Parse()
	if cfg.runs < 1 || cfg.warmup < 0 || cfg.tokens < 1 || cfg.tputRuns < 1 || cfg.batch < 1 || flag.NArg() > 0 {
		flag.Usage()
		os.Exit(2)
	}
	benchkit.Main("chat", cfg.profile, func(ctx context.Context, tmp string) error { return run(ctx, cfg, tmp) })
}

func run(ctx context.Context, cfg config, tmp string) (err error) {

	long := longReply(cfg.tokens)
	b := &bench{cfg: cfg, long: long, longText: strings.Join(long, ""), res: &results{env: benchkit.InProcess("bench/chat"), cfg: cfg}}
	if b.w, err = startWisp(ctx, filepath.Join(tmp, "wisp"), long); err != nil {
		return err
	}
	wispUp := true
	defer func() {
		if wispUp {
			_ = b.w.stop()
		}
	}()
	if b.floor, err = startFloor(long); err != nil {
		return err
	}
	defer b.floor.stop()
	if b.sqlite, err = openSQLiteFloor(ctx, filepath.Join(tmp, "floor.db"), long); err != nil {
		return err
	}
	defer b.sqlite.close()

	fmt.Fprintf(os.Stderr, "first token: %d runs each after %d warm-up runs...\n", cfg.runs, cfg.warmup)
	if err := b.firstToken(ctx); err != nil {
		return err
	}
	if err := b.throughput(ctx); err != nil {
		return err
	}
	b.groupCommits(ctx)
	wispUp = false
	if err := b.w.stop(); err != nil {
		return fmt.Errorf("wisp: stop: %w", err)
	}
	if err := b.verifyDisk(ctx); err != nil {
		return err
	}

	if err := benchkit.Publish(cfg.out, "chat", sectionIntro, b.res.markdown()); err != nil {
		return err
	}
	if n := len(b.res.problems); n > 0 {
		return fmt.Errorf("%d correctness check(s) failed; first: %s", n, b.res.problems[0])
	}
	return nil
}

// vocabulary makes the long reply: one word per chunk, a space before every
// word but the first. The words need no JSON escaping, which the floor relies on.
var vocabulary = strings.Fields("the quick brown fox jumps over a lazy dog while seven wise owls watch from old oak trees")

func longReply(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = vocabulary[i%len(vocabulary)]
		if i > 0 {
			out[i] = " " + out[i]
		}
	}
	return out
}

// sseBytes is about how many bytes the long reply takes as token frames:
// every frame repeats the text so far.
func sseBytes(chunks []string) int {
	total, full := 0, 0
	for i, c := range chunks {
		full += len(c)
		total += len(fmt.Sprintf("id: %d\ndata: {\"type\":\"token\",\"text\":\"\",\"fullText\":\"\"}\n\n", i+1)) + len(c) + full
	}
	return total
}
