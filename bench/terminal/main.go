// Command terminal is Wisp's terminal benchmark: output throughput of a run to
// a WebSocket client, and keystroke → echo latency, each next to a bare PTY
// floor measured in the same run.
//
// It starts a real Wisp App in this process on 127.0.0.1 with shell access
// on, connects one WebSocket client to /ws?clientId=bench (after the first
// status frame), and measures:
//
//   - throughput: `head -c 256M /dev/zero` and a newline-dense source
//     (`yes | head -c 64M`), each started with POST /api/terminal/run as an
//     interactive run (output processing on: "\n" becomes "\r\n") and as a
//     captureOutput run (output processing off), timed from the POST to the
//     run's exit event on the socket. The floor of each mode is the same
//     command, run by the same shell, on a bare PTY (creack/pty; cooked, or
//     with OPOST cleared for the captured mode) read with a 32 KiB buffer
//     until EIO. Wisp and the floor take turns, and every case goes round
//     once per repetition;
//   - keystroke → echo: one character sent as a terminal-input frame to a
//     `cat` run (the line discipline echoes it) until its stdout event
//     arrives, against one byte written to a bare PTY running cat until it is
//     read back, one sample of each in turn, in two series: keystrokes typed
//     1 ms after the previous echo (within Wisp's 2 ms output batching
//     window, which must not hold an echo) and 5 ms after it.
//
// The client decodes each frame's fields with encoding/json; by default
// (--client=count) the data of a large output event is only counted by a
// one-pass scanner, since encoding/json alone decodes NUL output more slowly
// than Wisp sends it. The time the client spends decoding is shown beside
// each figure, and Wisp's encoder and both decoders are also timed alone. One
// last run of the zero source goes to a client that decodes everything with
// encoding/json, to record whether flow control keeps it served or the hub
// drops it.
//
// Every Wisp run is checked: events numbered without a gap, exactly the
// expected stdout bytes (one more per newline when "\n" becomes "\r\n"), no
// stderr, exit code 0 (143 for the killed cat), and a captured run's answer
// agreeing with its stream.
//
// The result is printed on stdout and, with --out, written between the
// "<!-- bench:terminal:begin -->" and "<!-- bench:terminal:end -->" markers
// of BENCHMARKS.md; the rest of that file is kept. The exit status is
// non-zero when the harness cannot measure or a check fails; a missed target
// is printed but is not a failure. --profile writes a CPU profile in which
// the client's and the floors' samples carry the labels side=client and
// side=floor, and Wisp's own have none.
//
// Usage:
//
//	go run ./bench/terminal --out BENCHMARKS.md
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime/pprof"
	"time"

	"github.com/wispapp/wisp/bench/benchkit"
)

type config struct {
	runs                    int           // recorded runs of each throughput case
	zeroMiB, linesMiB       int           // sizes of the two sources
	echoSamples, echoWarmup int           // keystrokes recorded, and unrecorded ones before them
	gap, pause              time.Duration // between an echo and the next keystroke
	client                  string        // "json" or "count"
	out, profile            string
}

func main() {
	var cfg config
	flag.IntVar(&cfg.runs, "runs", 3, "recorded runs of each throughput case (source × mode), for Wisp and the floor each")
	flag.IntVar(&cfg.zeroMiB, "zero-mib", 256, "MiB written by the zero source (head -c NM /dev/zero)")
	flag.IntVar(&cfg.linesMiB, "lines-mib", 64, "MiB written by the newline-dense source (yes | head -c NM)")
	flag.IntVar(&cfg.echoSamples, "keystrokes", 1000, "recorded keystroke → echo samples, for Wisp and the floor each")
	flag.IntVar(&cfg.echoWarmup, "keystroke-warmup", 50, "unrecorded keystrokes before them")
	flag.DurationVar(&cfg.gap, "gap", time.Millisecond, "time from an echo to the next keystroke, first series (within Wisp's 2 ms output batching window)")
	flag.DurationVar(&cfg.pause, "pause", 5*time.Millisecond, "time from an echo to the next keystroke, second series (after the window)")
	flag.StringVar(&cfg.client, "client", "count", "how the socket client decodes output events: count (encoding/json for all but a large event's data, whose decoded bytes are only counted) or json (encoding/json for every frame; too slow for NUL output: the hub drops it)")
	flag.StringVar(&cfg.out, "out", "", "Markdown file whose terminal section is replaced (e.g. BENCHMARKS.md); empty: stdout only")
	flag.StringVar(&cfg.profile, "profile", "", "write a CPU profile of the whole run to this file; samples carry the label side=floor or side=client, Wisp's own have none")
	flag.Parse()
	if cfg.runs < 1 || cfg.zeroMiB < 1 || cfg.linesMiB < 1 || cfg.echoSamples < 1 || cfg.echoWarmup < 0 || cfg.gap < 0 || cfg.pause < 0 ||
		(cfg.client != "json" && cfg.client != "count") || flag.NArg() > 0 {
		flag.Usage()
		os.Exit(2)
	}
	benchkit.Main("terminal", cfg.profile, func(ctx context.Context, tmp string) error { return run(ctx, cfg, tmp) })
}

func run(ctx context.Context, cfg config, tmp string) (err error) {
	cwd := filepath.Join(tmp, "cwd")
	if err := os.Mkdir(cwd, 0o700); err != nil {
		return err
	}

	b := &bench{cfg: cfg, res: &results{env: environment(), cfg: cfg}}
	for _, src := range []source{zeroSource(cfg.zeroMiB), linesSource(cfg.linesMiB)} {
		for _, m := range []mode{interactive, captured} {
			b.res.cases = append(b.res.cases, &tputCase{src: src, mode: m})
		}
	}
	// Wisp is started outside any profiler label, so its goroutines have none.
	if b.w, err = startWisp(ctx, filepath.Join(tmp, "wisp"), cwd, cfg.client == "count"); err != nil {
		return err
	}
	wispUp := true
	defer func() {
		if wispUp {
			_ = b.w.stop()
		}
	}()

	measure := func(ctx context.Context) {
		fmt.Fprintln(os.Stderr, "warm-up...")
		if err = b.warmUp(ctx); err != nil {
			return
		}
		fmt.Fprintf(os.Stderr, "throughput: %d runs of each case...\n", cfg.runs)
		if err = b.throughput(ctx); err != nil {
			return
		}
		fmt.Fprintf(os.Stderr, "keystrokes: %d samples each after %d warm-up...\n", cfg.echoSamples, cfg.echoWarmup)
		if err = b.keystrokes(ctx); err != nil {
			return
		}
		fmt.Fprintln(os.Stderr, "JSON encode and decode alone...")
		if b.res.codec, err = measureCodec(300 * time.Millisecond); err != nil {
			return
		}
		if cfg.client == "count" {
			fmt.Fprintln(os.Stderr, "an encoding/json client on the zero source...")
			err = b.jsonClientProbe(ctx)
		}
	}
	pprof.Do(ctx, pprof.Labels("side", "client"), measure)
	if err != nil {
		return err
	}
	wispUp = false
	if err := b.w.stop(); err != nil {
		return fmt.Errorf("wisp: stop: %w", err)
	}

	if err := benchkit.Publish(cfg.out, "terminal", sectionIntro, b.res.markdown()); err != nil {
		return err
	}
	if n := len(b.res.problems); n > 0 {
		return fmt.Errorf("%d correctness check(s) failed; first: %s", n, b.res.problems[0])
	}
	return nil
}
