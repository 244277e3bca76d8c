// Command desktopidle is Wisp's desktop-at-idle benchmark: how much CPU the
// desktop build (Wails over WebKitGTK) and its WebKit processes use while
// nothing happens, with the window visible and with it hidden, and how much
// memory they hold.
//
// It starts Xvfb (no window manager; WebKit draws with software GL), then the
// desktop binary in it with a fresh state directory and a fresh home, waits
// for the page's `ui ready … painted=true` log line (as
// scripts/desktop-smoke.sh does) and lets it settle. Then it counts the CPU
// time (utime + stime from /proc/<pid>/stat) of the binary and every
// descendant process (WebKitWebProcess, WebKitNetworkProcess, …) over a window
// of 30 s with the window visible and the avatar idling, then over 30 s with
// the window unmapped (what a window manager does to iconify it; GTK takes it
// as iconification and WebKit marks the page hidden), then over 10 s with it
// mapped again, to show that rendering resumes. Memory is the sum of VmRSS
// (/proc/<pid>/status) and of Pss (/proc/<pid>/smaps_rollup) of the same
// processes at the end of the visible and of the hidden window. Then the
// window is closed like a user closes it, and must exit with status 0.
//
// With --vrm <file>, the same binary is measured a second time, in turn with
// the first, with the user's own character: once the page painted, the driver
// uploads the file (POST /api/avatar, as Settings → Avatar does, with the API
// token it gave the binary in WISP_API_TOKEN, at the URL from the log's
// `msg="wisp started" url=…` line) and waits for the page's
// `msg="ui report" event=avatar-loaded detail=vrm` before settling. Either
// run waits for the page's report that its character loaded.
//
// Targets: at most 5% of one core visible and idle, at most 1% hidden.
//
// The result is printed on stdout and, with --out, written between the
// "<!-- bench:desktopidle:begin -->" and "<!-- bench:desktopidle:end -->"
// markers of BENCHMARKS.md; the rest of that file is kept. The exit status
// is non-zero when the harness cannot measure; a missed target is printed
// but is not a failure. With --baseline, a second binary (an older build, say)
// is measured in the same run, in turn with the first, for a before/after.
//
// It imports none of Wisp (only bench/benchkit for the report): Wisp runs as
// the desktop binary under test, in processes of its own.
//
// Usage (see `make bench-desktop`; needs xvfb and python3-xlib, scripts/deps.sh):
//
//	go run ./bench/desktopidle --wisp build/bin/wisp --out BENCHMARKS.md
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/wispapp/wisp/bench/benchkit"
)

type config struct {
	wisp, baseline, baselineName string
	vrm                          string // a VRM file measured as a second character; empty: the built-in one only
	runs                         int
	settle, hiddenSettle         time.Duration // before the visible and the hidden window
	window, shownWindow          time.Duration // visible and hidden; shown again
	display                      string
	out, profile                 string
	logDir                       string // where Wisp's logs are kept; empty: deleted with the scratch folder
	ticks                        int64  // clock ticks per second
}

func main() {
	var cfg config
	flag.StringVar(&cfg.wisp, "wisp", "build/bin/wisp", "the desktop binary (make build)")
	flag.StringVar(&cfg.baseline, "baseline", "", "a second desktop binary measured in the same run, in turn with --wisp (e.g. an older build); empty: none")
	flag.StringVar(&cfg.baselineName, "baseline-name", "baseline", "what the report calls --baseline")
	flag.StringVar(&cfg.vrm, "vrm", "", "a .vrm file: also measure the binary with it as the character (uploaded like Settings → Avatar does), in turn; empty: the built-in character only")
	flag.IntVar(&cfg.runs, "runs", 1, "measured runs of each binary, each from exec to exit")
	flag.DurationVar(&cfg.settle, "settle", 15*time.Second, "pause after the page painted, before the visible window (the avatar loads)")
	flag.DurationVar(&cfg.hiddenSettle, "hidden-settle", 3*time.Second, "pause after hiding the window, before the hidden window")
	flag.DurationVar(&cfg.window, "window", 30*time.Second, "how long CPU time is counted, visible and hidden")
	flag.DurationVar(&cfg.shownWindow, "shown-window", 10*time.Second, "how long it is counted after the window is shown again")
	flag.StringVar(&cfg.display, "display", "", "an X display to use (e.g. :99); empty: start Xvfb "+screen)
	flag.StringVar(&cfg.out, "out", "", "Markdown file whose desktopidle section is replaced (e.g. BENCHMARKS.md); empty: stdout only")
	flag.StringVar(&cfg.logDir, "log-dir", "", "keep each run's Wisp log in this folder (<binary>-<run>.log); empty: discard them")
	flag.StringVar(&cfg.profile, "cpuprofile", "", "write a CPU profile of the driver to this file")
	flag.Parse()
	if cfg.runs < 1 || cfg.window <= 0 || cfg.shownWindow <= 0 || flag.NArg() > 0 {
		flag.Usage()
		os.Exit(2)
	}
	cfg.ticks = clockTicks()
	benchkit.Main("desktopidle", cfg.profile, func(ctx context.Context, tmp string) error { return run(ctx, cfg, tmp) })
}

func run(ctx context.Context, cfg config, tmp string) error {
	targets := []*target{{name: "wisp", path: cfg.wisp, checked: true}}
	if cfg.vrm != "" {
		if _, err := os.Stat(cfg.vrm); err != nil {
			return fmt.Errorf("--vrm: %w", err)
		}
		targets[0].name = builtinName
		targets = append(targets, &target{name: vrmName, path: cfg.wisp, vrm: cfg.vrm, checked: true})
	}
	if cfg.baseline != "" {
		targets = append(targets, &target{name: cfg.baselineName, path: cfg.baseline})
	}
	var bins []benchkit.Binary
	statted := map[string]bool{}
	for _, t := range targets {
		if _, err := os.Stat(t.path); err != nil {
			return fmt.Errorf("%s binary (make build): %w", t.name, err)
		}
		if !statted[t.path] {
			statted[t.path] = true
			name := t.name
			if t.vrm == "" && cfg.vrm != "" {
				name = "wisp"
			}
			bins = append(bins, benchkit.StatBinary(name, t.path))
		}
	}

	if cfg.logDir != "" {
		if err := os.MkdirAll(cfg.logDir, 0o755); err != nil {
			return err
		}
	}
	x := &xvfb{display: cfg.display}
	if cfg.display == "" {
		var err error
		if x, err = startXvfb(ctx); err != nil {
			return err
		}
		defer x.stop()
	}
	fmt.Fprintf(os.Stderr, "desktopidle: display %s; %d run(s) of %d binary(ies)\n", x.display, cfg.runs, len(targets))

	for round := 1; round <= cfg.runs; round++ {
		for _, t := range targets {
			dir := filepath.Join(tmp, fmt.Sprintf("%s-%d", fileName(t.name), round))
			fmt.Fprintf(os.Stderr, "run %d/%d, %s (%s):\n", round, cfg.runs, t.name, t.path)
			logPath := filepath.Join(dir, "wisp.log")
			if cfg.logDir != "" {
				logPath = filepath.Join(cfg.logDir, fmt.Sprintf("%s-%d.log", fileName(t.name), round))
			}
			r, err := measureOnce(ctx, cfg, x, t, dir, logPath)
			if err != nil {
				return err
			}
			t.runs = append(t.runs, r)
		}
	}

	res := &results{env: benchkit.Environment(bins...), cfg: cfg, targets: targets, ownXvfb: cfg.display == ""}
	return benchkit.Publish(cfg.out, "desktopidle", sectionIntro, res.markdown())
}

// What the report calls the two characters when --vrm is given.
const (
	builtinName = "wisp, built-in character"
	vrmName     = "wisp, VRM character"
)

// fileName is a target's name as a file name: letters and digits, the rest "-".
func fileName(name string) string {
	return strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' {
			return r
		}
		return '-'
	}, name)
}
