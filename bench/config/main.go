// Command config is Wisp's config reload benchmark: the time from an editor's
// save of wisp.json to the restart-required frame at a /ws client, next to the
// raw fsnotify latency of the same save measured in the same run.
//
// It starts a real Wisp App in this process on 127.0.0.1 with its state in a
// scratch folder, and connects one WebSocket client to /ws (ready once its
// first status frame came). One sample is one save of <state>/wisp.json the
// way editors save: a temporary file in the same folder is written, fsynced
// and closed, then renamed over wisp.json. The clock starts when rename(2)
// returns and stops when the client has read the frame
//
//	{"type":"restart-required","reasons":["Terminal run limit changed: 2 → N"]}
//
// that the save causes. Each save sets terminal.maxConcurrent (a restart-only
// setting) to a value other than the running one and other than the previous
// save's, so that every save changes the reasons and gets its own frame. Wisp
// follows the file with fsnotify on its folder and reads it once the folder has
// been quiet for 100 ms (app/config/watch.go); saves are far enough apart that
// each is its own burst. Other frames (status, config-changed) are skipped.
//
// The floor is a bare fsnotify watcher on a folder of its own: the same save,
// timed from the rename's return to the event for the file's name arriving on
// the watcher's Events channel (its Errors channel is drained too). Wisp and
// the floor take turns, one save each in a rotating order, after unrecorded
// warm-up saves.
//
// Every frame is checked: each save gets exactly one restart-required frame,
// whose reasons are exactly the one expected, and nothing is left over at the
// end.
//
// The result is printed on stdout and, with --out, written between the
// "<!-- bench:config:begin -->" and "<!-- bench:config:end -->" markers of
// BENCHMARKS.md; the rest of that file is kept. The exit status is non-zero
// when the harness cannot measure or a check fails; a missed target is
// printed but is not a failure.
//
// Usage (see `make bench`):
//
//	go run ./bench/config --out BENCHMARKS.md
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/wispapp/wisp/bench/benchkit"
)

type options struct {
	runs, warmup int           // recorded saves per side, and unrecorded ones before them
	gap          time.Duration // from one round's first save to the next round's
	out, profile string
}

func main() {
	var opts options
	flag.IntVar(&opts.runs, "runs", 50, "recorded saves of Wisp's config file and of the floor's")
	flag.IntVar(&opts.warmup, "warmup", 3, "unrecorded saves of each before them")
	flag.DurationVar(&opts.gap, "gap", 300*time.Millisecond, "at least this long from one save to the next (more than the 100 ms debounce)")
	flag.StringVar(&opts.out, "out", "", "Markdown file whose config section is replaced (e.g. BENCHMARKS.md); empty: stdout only")
	flag.StringVar(&opts.profile, "cpuprofile", "", "write a CPU profile of the whole run (Wisp, floor and client) to this file")
	flag.Parse()
	if opts.runs < 1 || opts.warmup < 0 || opts.gap < 0 || flag.NArg() > 0 {
		flag.Usage()
		os.Exit(2)
	}
	benchkit.Main("config", opts.profile, func(ctx context.Context, tmp string) error { return run(ctx, opts, tmp) })
}

func run(ctx context.Context, opts options, tmp string) error {
	w, err := startWisp(ctx, filepath.Join(tmp, "wisp"))
	if err != nil {
		return err
	}
	defer w.stop()
	f, err := startFloor(filepath.Join(tmp, "floor"), w.base)
	if err != nil {
		return err
	}
	defer f.stop()

	res := &results{env: benchkit.InProcess("bench/config"), opts: opts, wisp: w.side(), floor: f.side()}
	fmt.Fprintf(os.Stderr, "config: %d saves each after %d warm-up, %s apart...\n", opts.runs, opts.warmup, opts.gap)
	if err := measure(ctx, opts, w.running, res.sides()); err != nil {
		return err
	}

	return benchkit.Publish(opts.out, "config", sectionIntro, res.markdown())
}
