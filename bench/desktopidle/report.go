package main

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/wispapp/wisp/bench/benchkit"
)

// Targets, in percent of one core.
const (
	targetVisible = 5.0
	targetHidden  = 1.0
)

// sectionIntro is written above the desktopidle section of BENCHMARKS.md
// (<!-- bench:desktopidle:begin --> … <!-- bench:desktopidle:end -->) when it is new.
const sectionIntro = "## Desktop at idle\n\n" +
	"The desktop build (`build/bin/wisp`: Wails v2 over WebKitGTK 4.1) left alone, in Xvfb " + screen + " " +
	"without a window manager, where WebKit draws with software GL (no GPU). The driver starts the binary with a " +
	"fresh state directory and a fresh home, waits for the page's `ui ready … painted=true` log line (as " +
	"`scripts/desktop-smoke.sh` does), lets it settle while the avatar loads, then counts the CPU time " +
	"(utime + stime from `/proc/<pid>/stat`, in clock ticks) of Wisp and every process it started (the WebKit " +
	"web and network processes) over 30 s with the window visible and the avatar idling, then over 30 s with " +
	"the window unmapped (what a window manager does to iconify it: GTK takes it as iconification and WebKit " +
	"marks the page hidden), then over 10 s with it mapped again, to show that drawing resumes. Each figure is " +
	"that CPU time as a share of one core. Memory is the sum of RSS (`VmRSS`) and of PSS (`Pss` from " +
	"`/proc/<pid>/smaps_rollup`, which divides shared pages among the processes that map them) of the same " +
	"processes; PSS also depends on what else on the machine maps the same libraries. The X server's own CPU " +
	"time in the same windows is shown for context and not counted. " +
	"Targets: at most 5% of one core visible and idle, at most 1% hidden. These are absolute targets rather " +
	"than ratios: the floor for a window that shows nothing new is no drawing at all. What the figures rest on " +
	"(`frontend/src/avatar/renderPolicy.ts`, `poseWatch.ts`): the avatar draws at display rate only while an " +
	"emote plays and for 0.6 s after; idle, its pose advances at most 15 times a second but is drawn only once " +
	"some part of it has moved 5 pixels since the last frame drawn (about once a second for the idle clip), " +
	"because without a GPU every frame costs WebKit a full-window composite in software GL; and nothing is " +
	"drawn while the page is hidden, which WebKitGTK reports when the window is minimised or unmapped. " +
	"With `--vrm <file>` (as `make bench-desktop` runs it, with `frontend/e2e/fixtures/wisp-test.vrm`) the same " +
	"binary is measured a second time, in turn with the first, with the user's own character: once the page " +
	"painted, the driver uploads the file through `POST /api/avatar` (as Settings → Avatar does) and waits for " +
	"the page's report that it shows the VRM (`ui report event=avatar-loaded detail=vrm`) before settling; " +
	"either run waits for the page's report that its character loaded. The face blinks every 2–6 s and glances " +
	"now and then, so idle draws a little more than before it had a face. " +
	"Driver: `bench/desktopidle`.\n\n"

// results are every run of one invocation of the driver.
type results struct {
	env     benchkit.Env
	cfg     config
	targets []*target
	ownXvfb bool
}

// markdown renders the section that goes between the markers (and on stdout).
func (r *results) markdown() string {
	var b strings.Builder
	c := r.cfg
	runs := fmt.Sprintf("%d runs", c.runs)
	if c.runs == 1 {
		runs = "1 run"
	}
	each := "the binary"
	switch {
	case c.vrm != "" && len(r.targets) > 2:
		each = "each character and binary, taking turns"
	case c.vrm != "":
		each = fmt.Sprintf("each character (the built-in one, and `%s` uploaded through `POST /api/avatar` once the page painted), taking turns", filepath.ToSlash(c.vrm))
	case len(r.targets) > 1:
		each = "each binary, taking turns"
	}
	fmt.Fprintf(&b, "%s · Xvfb %s, no window manager · %s of %s, each: the page painted, %s to settle, %s visible, %s hidden (after %s), %s shown again.\n\n",
		r.env.Line(), screen, runs, each, secs(c.settle), secs(c.window), secs(c.window), secs(c.hiddenSettle), secs(c.shownWindow))
	r.table(&b)
	r.breakdown(&b)
	r.checks(&b)
	return strings.TrimRight(b.String(), "\n")
}

// secs renders a duration in whole seconds: "30 s".
func secs(d time.Duration) string { return fmt.Sprintf("%.0f s", d.Seconds()) }

// median of f over a target's runs.
func (t *target) median(f func(*runResult) float64) float64 {
	xs := make([]float64, len(t.runs))
	for i, run := range t.runs {
		xs[i] = f(run)
	}
	return benchkit.Median(xs)
}

func (r *results) cpu(p phase) func(*runResult) float64 {
	return func(run *runResult) float64 { return share(run.cpu[p].total, run.seconds[p], r.cfg.ticks) }
}

func (r *results) xvfbCPU(p phase) func(*runResult) float64 {
	return func(run *runResult) float64 { return share(run.xvfb[p], run.seconds[p], r.cfg.ticks) }
}

func rssMiB(p phase) func(*runResult) float64 {
	return func(run *runResult) float64 { return float64(run.mem[p].rssTotal) / 1024 }
}

func pssMiB(p phase) func(*runResult) float64 {
	return func(run *runResult) float64 { return float64(run.mem[p].pssTotal) / 1024 }
}

func (r *results) table(b *strings.Builder) {
	b.WriteString("| Figure |")
	for _, t := range r.targets {
		fmt.Fprintf(b, " %s |", t.name)
	}
	b.WriteString(" Target | Result |\n|---|")
	for range r.targets {
		b.WriteString("--:|")
	}
	b.WriteString(":-:|---|\n")
	row := func(name string, f func(*runResult) float64, format string, target string, ok func(float64) bool) {
		fmt.Fprintf(b, "| %s |", name)
		for i, t := range r.targets {
			v := fmt.Sprintf(format, t.median(f))
			if (t.checked || i == 0) && ok != nil {
				v = "**" + v + "**"
			}
			fmt.Fprintf(b, " %s |", v)
		}
		verdict := "—"
		if ok != nil {
			var vs []string
			for i, t := range r.targets {
				if t.checked || i == 0 {
					vs = append(vs, benchkit.Verdict(ok(t.median(f))))
				}
			}
			verdict = strings.Join(vs, " / ")
		}
		fmt.Fprintf(b, " %s | %s |\n", target, verdict)
	}
	w := secs(r.cfg.window)
	row("CPU, window visible, avatar idling ("+w+"), share of one core", r.cpu(visible), "%.1f%%",
		fmt.Sprintf("≤ %.0f%%", targetVisible), func(v float64) bool { return v <= targetVisible })
	row("CPU, window hidden (unmapped, "+w+")", r.cpu(hidden), "%.1f%%",
		fmt.Sprintf("≤ %.0f%%", targetHidden), func(v float64) bool { return v <= targetHidden })
	row("CPU, window shown again ("+secs(r.cfg.shownWindow)+")", r.cpu(shown), "%.1f%%", "—", nil)
	row("RSS of Wisp and its WebKit processes, visible", rssMiB(visible), "%.0f MiB", "—", nil)
	row("PSS of the same, visible", pssMiB(visible), "%.0f MiB", "—", nil)
	row("RSS, hidden", rssMiB(hidden), "%.0f MiB", "—", nil)
	row("PSS, hidden", pssMiB(hidden), "%.0f MiB", "—", nil)
	if r.ownXvfb {
		row("Context: the X server (Xvfb), visible", r.xvfbCPU(visible), "%.1f%%", "—", nil)
		row("Context: the X server (Xvfb), hidden", r.xvfbCPU(hidden), "%.1f%%", "—", nil)
	}
	row("Context: exec → the page painted", func(run *runResult) float64 { return run.ready.Seconds() }, "%.1f s", "—", nil)
}

// breakdown writes, for each binary, which processes use the CPU and hold the memory.
func (r *results) breakdown(b *strings.Builder) {
	for _, t := range r.targets {
		fmt.Fprintf(b, "\nBy process, %s (CPU: mean over the runs; memory: the last run):\n\n", t.name)
		b.WriteString("| Process (comm) | count | CPU visible | CPU hidden | RSS visible | PSS visible |\n|---|--:|--:|--:|--:|--:|\n")
		last := t.runs[len(t.runs)-1]
		names := map[string]bool{}
		for _, run := range t.runs {
			for _, p := range []phase{visible, hidden} {
				for n := range run.cpu[p].ticks {
					names[n] = true
				}
			}
		}
		for n := range last.mem[visible].rss {
			names[n] = true
		}
		sorted := slices.Sorted(func(yield func(string) bool) {
			for n := range names {
				if !yield(n) {
					return
				}
			}
		})
		mean := func(p phase, name string) float64 {
			var sum float64
			for _, run := range t.runs {
				sum += share(run.cpu[p].ticks[name], run.seconds[p], r.cfg.ticks)
			}
			return sum / float64(len(t.runs))
		}
		slices.SortStableFunc(sorted, func(a, b string) int {
			return int(last.mem[visible].pss[b] - last.mem[visible].pss[a])
		})
		for _, n := range sorted {
			m := last.mem[visible]
			fmt.Fprintf(b, "| `%s` | %d | %.1f%% | %.1f%% | %.0f MiB | %.0f MiB |\n", n, m.count[n],
				mean(visible, n), mean(hidden, n), float64(m.rss[n])/1024, float64(m.pss[n])/1024)
		}
	}
}

// checks writes how the runs ended and anything that may bias the figures.
func (r *results) checks(b *strings.Builder) {
	b.WriteString("\n")
	for _, t := range r.targets {
		clean, exited := 0, 0
		var msgs []string
		for _, run := range t.runs {
			if run.clean {
				clean++
			} else {
				msgs = append(msgs, run.exitMsg)
			}
			for p := range phases {
				exited += run.cpu[p].exited
			}
		}
		fmt.Fprintf(b, "%s: closed like a user closes the window, exit status 0: %d/%d", t.name, clean, len(t.runs))
		if len(msgs) > 0 {
			fmt.Fprintf(b, " (%s)", strings.Join(msgs, "; "))
		}
		if exited > 0 {
			fmt.Fprintf(b, "; %d process(es) ended inside a counted window, so their last CPU time is missing", exited)
		}
		b.WriteString(".\n")
	}
}
