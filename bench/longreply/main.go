// Command longreply is Wisp's long-reply benchmark: how the cost of one reply
// grows with its length, in both chat SSE dialects, and what a streamed token
// costs on disk before and after the run log is compacted.
//
// It starts a real Wisp App in this process on 127.0.0.1, answered by the fake
// model (runtime/llm/llmtest, one word per chunk, no delay), and streams
// replies of several lengths in Eliza's dialect (fullText in every token
// frame) and in the delta dialect (?dialect=delta), next to two floors served
// by a bare net/http server in the same process: bare delta frames, and the
// same fake model stream decoded by Wisp's model client (runtime/llm) and
// re-sent as bare delta frames. For each stream it counts the bytes, the wall
// time, this process's CPU time (getrusage: Wisp or the floor, the fake model
// and loopback; the client only reads) and, after the stream, the time to
// decode every frame. A separate fresh Wisp then streams many replies and the
// driver sizes run_events on disk, compacted as Wisp left it and as the
// uncompacted rows written through Wisp's store.
//
// The result is printed on stdout and, with --out, written between the
// "<!-- bench:longreply:begin -->" and "<!-- bench:longreply:end -->" markers
// of BENCHMARKS.md. The exit status is non-zero when the harness cannot
// measure or a check fails; a missed target is printed but is not a failure.
//
// Usage (see `make bench`):
//
//	go run ./bench/longreply --out BENCHMARKS.md
package main

import (
	"context"
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/wispapp/wisp/bench/benchkit"
	"github.com/wispapp/wisp/runtime/llm/llmtest"
)

type config struct {
	lengths     []int // reply lengths in words (chunks), ascending
	runs        int   // rounds at the longest length; shorter ones get more
	elizaLong   int   // Eliza-dialect streams at lengths whose stream passes 1 GB
	keep        int   // bytes of a stream the client keeps to decode
	diskReplies int
	diskTokens  int
	out         string
	profile     string
}

// repeats is how many rounds length n gets: runs at the longest, and more as
// replies get shorter (×2 per quartering of the length).
func (c config) repeats(n int) int {
	longest := c.lengths[len(c.lengths)-1]
	return c.runs * int(math.Ceil(math.Sqrt(float64(longest)/float64(n))))
}

// elizaRuns is how many of those rounds stream Eliza's dialect too: all of
// them, unless its stream would pass 1 GB (the text so far in every frame).
func (c config) elizaRuns(n int) int {
	if elizaBytes(n) > 1e9 {
		return min(c.elizaLong, c.repeats(n))
	}
	return c.repeats(n)
}

// elizaBytes is about the size of a reply of n words in Eliza's dialect.
func elizaBytes(n int) float64 { return 2.5 * float64(n) * float64(n) }

func main() {
	var cfg config
	var lengths string
	var keepMiB int
	flag.StringVar(&lengths, "lengths", "500,2000,8000,32000", "reply lengths in one-word chunks, comma-separated")
	flag.IntVar(&cfg.runs, "runs", 5, "rounds at the longest length (shorter lengths get more)")
	flag.IntVar(&cfg.elizaLong, "eliza-long", 2, "Eliza-dialect streams at lengths whose stream passes 1 GB")
	flag.IntVar(&keepMiB, "keep", 256, "MiB of a stream the client keeps and decodes (a longer stream's decode time is scaled from them)")
	flag.IntVar(&cfg.diskReplies, "disk-replies", 200, "replies streamed for the disk figures")
	flag.IntVar(&cfg.diskTokens, "disk-tokens", 800, "words per reply for the disk figures")
	flag.StringVar(&cfg.out, "out", "", "Markdown file whose longreply section is replaced (e.g. BENCHMARKS.md); empty: stdout only")
	flag.StringVar(&cfg.profile, "cpuprofile", "", "write a CPU profile of the whole run (Wisp, floors and client) to this file")
	flag.Parse()
	var err error
	cfg.lengths, err = parseLengths(lengths)
	cfg.keep = keepMiB << 20
	if err != nil || cfg.runs < 1 || cfg.elizaLong < 1 || keepMiB < 1 || cfg.diskReplies < 1 || cfg.diskTokens < 2 || flag.NArg() > 0 {
		flag.Usage()
		os.Exit(2)
	}
	benchkit.Main("longreply", cfg.profile, func(ctx context.Context, tmp string) error { return run(ctx, cfg, tmp) })
}

func parseLengths(s string) ([]int, error) {
	var out []int
	for f := range strings.SplitSeq(s, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 1 {
			return nil, fmt.Errorf("bad length %q", f)
		}
		out = append(out, n)
	}
	slices.Sort(out)
	return slices.Compact(out), nil
}

func run(ctx context.Context, cfg config, tmp string) error {
	start := time.Now()
	res := newResults(cfg)
	fake := llmtest.New()
	defer fake.Close()
	fake.Fallback(replyTo)
	if err := measureStreams(ctx, cfg, filepath.Join(tmp, "wisp"), fake, res); err != nil {
		return err
	}
	if err := measureDisk(ctx, cfg, tmp, fake, res); err != nil {
		return err
	}
	res.peakRSS = peakRSS()
	res.took = time.Since(start)

	if err := benchkit.Publish(cfg.out, "longreply", sectionIntro, res.markdown()); err != nil {
		return err
	}
	if n := len(res.problems); n > 0 {
		return fmt.Errorf("%d correctness check(s) failed; first: %s", n, res.problems[0])
	}
	return nil
}

// measureStreams runs the stream figures against one Wisp, stopped after.
func measureStreams(ctx context.Context, cfg config, dir string, fake *llmtest.Server, res *results) error {
	w, err := startWisp(ctx, dir, fake)
	if err != nil {
		return err
	}
	defer w.stop()
	f, err := startFloors(fake.OpenAIURL(), benchkit.NewHTTPClient())
	if err != nil {
		return err
	}
	defer f.stop()
	m := &streams{cfg: cfg, w: w, floors: f, client: w.client, res: res}
	fmt.Fprintln(os.Stderr, "warm-up: one stream of each kind")
	if err := m.runLength(ctx, cfg.lengths[0], false); err != nil {
		return err
	}
	for _, n := range cfg.lengths {
		fmt.Fprintf(os.Stderr, "%d words: %d rounds (Eliza's dialect in %d)...\n", n, cfg.repeats(n), cfg.elizaRuns(n))
		if err := m.runLength(ctx, n, true); err != nil {
			return err
		}
		fake.ForgetRequests()
	}
	return nil
}

// peakRSS is this process's peak resident set (VmHWM), in bytes, or 0.
func peakRSS() int64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for line := range strings.Lines(string(b)) {
		if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			return kb << 10
		}
	}
	return 0
}
