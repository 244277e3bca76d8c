// Command startup is Wisp's start-up and footprint benchmark.
//
// In one run it measures `wisp serve` from exec to the first 200 on
// GET /api/status with an existing database, and its resident set size after
// an idle pause, next to the floor server (bench/floor: net/http + melody +
// go-sqlite3) measured the same way, and, when given, the same floor built
// with -tags sdk (it also links and sets up the two model SDKs Wisp links), so
// the section can say what the SDKs cost. Rounds are interleaved (wisp, floor,
// floor+SDKs, wisp, ...) so all share the machine's noise, and every figure
// is reported as the ratio wisp/floor against a target of at most 3×.
//
// The result is printed on stdout and written between the
// "<!-- bench:startup:begin -->" and "<!-- bench:startup:end -->" markers of
// BENCHMARKS.md; the rest of that file is kept. The exit status is non-zero
// only when the harness cannot measure; a missed target is printed but is
// not a failure.
//
// Usage (see `make bench`):
//
//	go build -o build/bin/wisp-floor ./bench/floor
//	go build -tags sdk -o build/bin/wisp-floor-sdk ./bench/floor
//	go run ./bench/startup --wisp build/bin/wisp-serve --floor build/bin/wisp-floor \
//		--floor-sdk build/bin/wisp-floor-sdk --out BENCHMARKS.md
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"

	"github.com/wispapp/wisp/bench/benchkit"
)

func main() {
	var cfg config
	flag.StringVar(&cfg.wisp, "wisp", "build/bin/wisp-serve", "path of the wisp binary (headless build)")
	flag.StringVar(&cfg.floor, "floor", "build/bin/wisp-floor", "path of the floor server binary (bench/floor)")
	flag.StringVar(&cfg.floorSDK, "floor-sdk", "", "path of the floor built with -tags sdk (links the model SDKs); empty: not measured")
	flag.IntVar(&cfg.runs, "runs", 15, "measured rounds per binary")
	flag.DurationVar(&cfg.idle, "idle", time.Second, "idle pause between the first 200 and reading VmRSS")
	flag.DurationVar(&cfg.startTimeout, "start-timeout", 30*time.Second, "longest wait for one start to answer 200")
	flag.StringVar(&cfg.out, "out", "", "Markdown file whose start-up section is replaced (e.g. BENCHMARKS.md); empty: stdout only")
	flag.StringVar(&cfg.json, "json", "", "also write the raw samples and results as JSON to this file")
	flag.Parse()
	if cfg.runs < 1 || flag.NArg() > 0 {
		flag.Usage()
		os.Exit(2)
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, cfg); err != nil {
		fmt.Fprintln(os.Stderr, "bench/startup:", err)
		os.Exit(1)
	}
}

type config struct {
	wisp, floor        string
	floorSDK           string
	runs               int
	idle, startTimeout time.Duration
	out, json          string
}

func run(ctx context.Context, cfg config) error {
	tmp, err := os.MkdirTemp("", "wisp-bench-startup-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)

	targets := []*target{
		{name: wispName, path: cfg.wisp, args: []string{"serve", "--port", "0"}, dbFile: "wisp.db"},
		{name: floorName, path: cfg.floor, args: []string{"--port", "0"}, dbFile: "floor.db"},
	}
	if cfg.floorSDK != "" {
		targets = append(targets, &target{name: floorSDKName, path: cfg.floorSDK, args: []string{"--port", "0"}, dbFile: "floor.db"})
	}
	for _, t := range targets {
		if _, err := os.Stat(t.path); err != nil {
			return fmt.Errorf("%s binary: %w", t.name, err)
		}
		t.stateDir = filepath.Join(tmp, t.name)
		if err := os.Mkdir(t.stateDir, 0o700); err != nil {
			return err
		}
	}

	// One unmeasured start per binary creates its database (and warms the
	// page cache), so every measured start opens an existing one.
	var warnings []string
	for _, t := range targets {
		s, err := t.measure(ctx, 0, cfg.startTimeout)
		if err != nil {
			return fmt.Errorf("preparation run: %w", err)
		}
		if !json.Valid(s.status) {
			warnings = append(warnings, fmt.Sprintf("%s: /api/status did not answer JSON: %.120q", t.name, s.status))
		}
		if s.unclean != "" {
			warnings = append(warnings, fmt.Sprintf("%s: preparation run did not exit cleanly: %s", t.name, s.unclean))
		}
		if _, err := os.Stat(filepath.Join(t.stateDir, t.dbFile)); err != nil {
			warnings = append(warnings, fmt.Sprintf("%s: no %s in its state directory after the preparation run; the start-up figure may not include opening a database", t.name, t.dbFile))
		}
	}

	res := newResult(targets, cfg.runs, cfg.idle)
	for round := 1; round <= cfg.runs; round++ {
		fmt.Fprintf(os.Stderr, "round %2d/%d:", round, cfg.runs)
		for _, t := range targets {
			s, err := t.measure(ctx, cfg.idle, cfg.startTimeout)
			if err != nil {
				fmt.Fprintln(os.Stderr)
				return fmt.Errorf("round %d: %w", round, err)
			}
			res.series[t.name].add(s)
			fmt.Fprintf(os.Stderr, "  %s %7.2f ms %6.1f MiB (anon %4.1f)", t.name, ms(s.startup), mib(s.rssKiB), mib(s.anonKiB))
			if s.unclean != "" {
				fmt.Fprintf(os.Stderr, " (unclean exit: %s)", s.unclean)
			}
		}
		fmt.Fprintln(os.Stderr)
	}
	res.warnings = warnings

	block := res.markdown()
	fmt.Println(block)
	for _, line := range res.verdicts() {
		fmt.Println(line)
	}

	var errs []error
	if cfg.out != "" {
		if err := benchkit.ReplaceSection(cfg.out, "startup", sectionIntro, block); err != nil {
			errs = append(errs, err)
		} else {
			fmt.Fprintf(os.Stderr, "wrote %s\n", cfg.out)
		}
	}
	if cfg.json != "" {
		if err := writeJSON(cfg.json, res); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}
