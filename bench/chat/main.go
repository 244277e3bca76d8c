// Command chat is Wisp's chat benchmark: first-token latency and server CPU
// per reply, next to a bare relay measured in the same run.
//
// The driver starts three child processes, each its own executable re-run with
// --serve: the fake model (runtime/llm/llmtest, OpenAI protocol, no delay
// between chunks), and two servers of the same kind answered by it:
//
//   - Wisp: a real App on 127.0.0.1, answered by the fake model;
//   - the bare relay (relay.go): net/http + bufio + encoding/json reading the
//     fake model's SSE and re-sending each text delta as an SSE frame,
//     nothing persisted, no SDK.
//
// For a short reply (3 chunks, each in a fresh conversation) and a long one
// (--tokens one-word chunks), in interleaved rounds (Wisp and the relay take
// turns, the first of each pair alternating), it measures from one HTTP
// client the time from the request to the first token frame, and each
// server's own CPU time (its getrusage, user + system) from before the
// request until it has gone quiet after the reply, per reply. Wisp streams
// in its delta dialect, the UI's.
//
// It also counts, from SQLite's write-ahead log, how many transactions one
// long stream takes (group commits), and checks every Wisp stream: the done
// frame's fullText is the joined chunks, and the run's log on disk (read after
// Wisp stopped) is compacted and gives back the reply.
//
// The result is printed on stdout and, with --out, written between the
// "<!-- bench:chat:begin -->" and "<!-- bench:chat:end -->" markers of
// BENCHMARKS.md; the rest of that file is kept. The exit status is non-zero
// when the harness cannot measure or a check fails; a missed target is
// printed but is not a failure.
//
// Usage (see `make bench`):
//
//	go run -tags sqlite_fts5 ./bench/chat --out BENCHMARKS.md
//
// --wisp-cpuprofile writes a CPU profile of the Wisp process.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/wispapp/wisp/bench/benchkit"
)

type config struct {
	rounds, warmup int // recorded rounds, and unrecorded ones before them
	batch          int // short replies per server in a round
	tokens         int // chunks in the long reply
	out, profile   string
	wispProfile    string
}

func main() {
	var cfg config
	var serve, model, dir string
	flag.IntVar(&cfg.rounds, "rounds", 30, "recorded rounds: each server answers --batch short replies and one long reply per round")
	flag.IntVar(&cfg.warmup, "warmup", 2, "unrecorded rounds before them")
	flag.IntVar(&cfg.batch, "batch", 10, "short replies per server in a round")
	flag.IntVar(&cfg.tokens, "tokens", 8000, "one-word chunks in the long reply")
	flag.StringVar(&cfg.out, "out", "", "Markdown file whose chat section is replaced (e.g. BENCHMARKS.md); empty: stdout only")
	flag.StringVar(&cfg.profile, "cpuprofile", "", "write a CPU profile of the driver (the client), or with --serve of that server")
	flag.StringVar(&cfg.wispProfile, "wisp-cpuprofile", "", "write a CPU profile of the Wisp process to this file")
	flag.StringVar(&serve, "serve", "", "internal: run as the child server wisp or relay")
	flag.StringVar(&model, "model", "", "internal: the fake model's base URL, with --serve")
	flag.StringVar(&dir, "dir", "", "internal: Wisp's state folder, with --serve")
	flag.Parse()
	if serve != "" {
		benchkit.Main("chat-"+serve, cfg.profile, func(ctx context.Context, _ string) error { return serveChild(ctx, serve, model, dir, cfg.tokens) })
		return
	}
	if cfg.rounds < 1 || cfg.warmup < 0 || cfg.batch < 1 || cfg.tokens < 1 || flag.NArg() > 0 {
		flag.Usage()
		os.Exit(2)
	}
	benchkit.Main("chat", cfg.profile, func(ctx context.Context, tmp string) error { return run(ctx, cfg, tmp) })
}

func run(ctx context.Context, cfg config, tmp string) (err error) {
	long := longReply(cfg.tokens)
	b := &bench{cfg: cfg, long: long, res: &results{cfg: cfg}}
	b.res.env = benchkit.Environment(benchkit.Executable("bench/chat"))
	model, err := startServer(ctx, "model", "", "", "", "--tokens", strconv.Itoa(cfg.tokens))
	if err != nil {
		return err
	}
	defer model.stop()
	b.dbPath = filepath.Join(tmp, "wisp", "wisp.db")
	if b.wisp, err = startServer(ctx, "wisp", model.url, filepath.Join(tmp, "wisp"), cfg.wispProfile); err != nil {
		return err
	}
	wispUp := true
	defer func() {
		if wispUp {
			_ = b.wisp.stop()
		}
	}()
	if b.relay, err = startServer(ctx, "relay", model.url, "", ""); err != nil {
		return err
	}
	defer b.relay.stop()
	b.client = benchkit.NewHTTPClient()

	b.res.loadBefore = loadAverage()
	fmt.Fprintf(os.Stderr, "%d rounds after %d warm-up rounds: %d short replies and one of %d chunks per server each...\n",
		cfg.rounds, cfg.warmup, cfg.batch, cfg.tokens)
	for i := -cfg.warmup; i < cfg.rounds; i++ {
		if err := b.round(ctx, i); err != nil {
			return err
		}
	}
	b.res.loadAfter = loadAverage()
	b.groupCommits(ctx)
	wispUp = false
	if err := b.wisp.stop(); err != nil {
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
// word but the first.
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

// loadAverage is the machine's 1-minute load average (/proc/loadavg), or "?".
func loadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if f := strings.Fields(string(b)); err == nil && len(f) > 0 {
		return f[0]
	}
	return "?"
}
