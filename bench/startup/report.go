package main

import (
	"debug/buildinfo"
	"encoding/json"
	"fmt"
	"os"
	"runtime"
	"strings"
	"time"

	"github.com/wispapp/wisp/bench/benchkit"
)

// sectionIntro is written above the start-up section of BENCHMARKS.md
// (<!-- bench:startup:begin --> … <!-- bench:startup:end -->) when it is new.
const sectionIntro = "## Start-up and footprint\n\n"

const (
	// targetRatio is the highest acceptable wisp/floor ratio for both figures.
	targetRatio = 3.0

	// elizaOS 1.7.2 measured on this machine kind (see REFERENCE.md):
	// restart to the first health 200, and idle RSS.
	elizaStartupMs  = 2970.0
	elizaRSSBytes   = 396e6
	elizaRSSDisplay = "396 MB"
)

// series holds the samples of one binary.
type series struct {
	StartupMs []float64 `json:"startup_ms"`
	RSSMiB    []float64 `json:"rss_mib"`
	Unclean   []string  `json:"unclean_exits,omitempty"`
}

func (s *series) add(x sample) {
	s.StartupMs = append(s.StartupMs, ms(x.startup))
	s.RSSMiB = append(s.RSSMiB, mib(x.rssKiB))
	if x.unclean != "" {
		s.Unclean = append(s.Unclean, x.unclean)
	}
}

type env struct {
	Date    string             `json:"date"`
	Go      string             `json:"go"`
	Built   map[string]string  `json:"built_with"`
	SizeMiB map[string]float64 `json:"size_mib"`
	Paths   map[string]string  `json:"paths"`
	Kernel  string             `json:"kernel"`
	CPU     string             `json:"cpu"`
	CPUs    int                `json:"cpus"`
}

type result struct {
	env         env
	runs        int
	idle        time.Duration
	wisp, floor series
	warnings    []string
}

func environment(targets []*target) env {
	e := env{
		Date:    time.Now().UTC().Format("2006-01-02 15:04 UTC"),
		Go:      runtime.Version() + " " + runtime.GOOS + "/" + runtime.GOARCH,
		Built:   map[string]string{},
		SizeMiB: map[string]float64{},
		Paths:   map[string]string{},
		CPUs:    runtime.NumCPU(),
	}
	for _, t := range targets {
		e.Paths[t.name] = t.path
		if bi, err := buildinfo.ReadFile(t.path); err == nil {
			e.Built[t.name] = bi.GoVersion
		}
		if fi, err := os.Stat(t.path); err == nil {
			e.SizeMiB[t.name] = float64(fi.Size()) / (1 << 20)
		}
	}
	e.Kernel, e.CPU = benchkit.Host()
	return e
}

// figure is one row of the table.
type figure struct {
	Name          string  `json:"name"`
	Unit          string  `json:"unit"`
	Wisp          summary `json:"wisp"`
	Floor         summary `json:"floor"`
	Ratio         float64 `json:"ratio"` // wisp median / floor median
	Pass          bool    `json:"pass"`
	ElizaOverWisp float64 `json:"eliza_over_wisp"`
	elizaDisplay  string
}

func (r *result) figures() []figure {
	mk := func(name, unit string, w, f []float64) figure {
		fig := figure{Name: name, Unit: unit, Wisp: summarize(w), Floor: summarize(f)}
		fig.Ratio = fig.Wisp.Median / fig.Floor.Median
		fig.Pass = fig.Ratio <= targetRatio
		return fig
	}
	start := mk("Start → first 200 on `/api/status`", "ms", r.wisp.StartupMs, r.floor.StartupMs)
	start.ElizaOverWisp = elizaStartupMs / start.Wisp.Median
	start.elizaDisplay = fmt.Sprintf("%.0f ms", elizaStartupMs)
	rss := mk(fmt.Sprintf("Idle RSS (VmRSS after %v)", r.idle), "MiB", r.wisp.RSSMiB, r.floor.RSSMiB)
	rss.ElizaOverWisp = elizaRSSBytes / (rss.Wisp.Median * (1 << 20))
	rss.elizaDisplay = elizaRSSDisplay
	return []figure{start, rss}
}

// markdown renders the section that goes between the markers (and on stdout).
func (r *result) markdown() string {
	var b strings.Builder
	e := r.env
	fmt.Fprintf(&b, "Measured %s · %s · Linux %s · %s (%d CPUs) · %d rounds of wisp then floor, each start on an existing database.\n\n",
		e.Date, e.Go, e.Kernel, e.CPU, e.CPUs, r.runs)

	b.WriteString("| Figure | wisp median | wisp p90 | floor median | floor p90 | wisp / floor | Target | Result |\n")
	b.WriteString("|---|--:|--:|--:|--:|--:|:-:|---|\n")
	figs := r.figures()
	for _, f := range figs {
		res := "pass"
		if !f.Pass {
			res = "**MISSED**"
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | **%.2f×** | ≤ %.0f× | %s |\n",
			f.Name, num(f.Wisp.Median, f.Unit), num(f.Wisp.P90, f.Unit),
			num(f.Floor.Median, f.Unit), num(f.Floor.P90, f.Unit), f.Ratio, targetRatio, res)
	}

	fmt.Fprintf(&b, "\nFor context (not measured in this run): elizaOS 1.7.2 on this machine kind takes %s from restart to its first 200 and holds %s idle, %.0f× and %.0f× Wisp's medians above.\n",
		figs[0].elizaDisplay, figs[1].elizaDisplay, figs[0].ElizaOverWisp, figs[1].ElizaOverWisp)

	fmt.Fprintf(&b, "\nBinaries: wisp `%s` (%.1f MiB, %s), floor `%s` (%.1f MiB, %s). ",
		e.Paths["wisp"], e.SizeMiB["wisp"], orUnknown(e.Built["wisp"]),
		e.Paths["floor"], e.SizeMiB["floor"], orUnknown(e.Built["floor"]))
	fmt.Fprintf(&b, "Clean exit (status 0) on SIGTERM: wisp %d/%d, floor %d/%d.\n",
		r.runs-len(r.wisp.Unclean), r.runs, r.runs-len(r.floor.Unclean), r.runs)
	if len(r.warnings) > 0 {
		b.WriteString("\nWarnings:\n\n")
		for _, w := range r.warnings {
			fmt.Fprintf(&b, "- %s\n", w)
		}
	}
	return strings.TrimRight(b.String(), "\n")
}

// verdicts are the plain lines printed after the table: one per target, and
// one per binary that did not always exit cleanly.
func (r *result) verdicts() []string {
	var out []string
	for _, f := range r.figures() {
		if f.Pass {
			out = append(out, fmt.Sprintf("target met:    %s: wisp/floor = %.2f× (≤ %.0f×)", f.Name, f.Ratio, targetRatio))
		} else {
			out = append(out, fmt.Sprintf("TARGET MISSED: %s: wisp/floor = %.2f× (> %.0f×)", f.Name, f.Ratio, targetRatio))
		}
	}
	for name, s := range map[string]series{"wisp": r.wisp, "floor": r.floor} {
		if len(s.Unclean) > 0 {
			out = append(out, fmt.Sprintf("UNCLEAN EXIT:  %s did not exit with status 0 after SIGTERM in %d of %d runs; first: %s",
				name, len(s.Unclean), r.runs, s.Unclean[0]))
		}
	}
	return out
}

func writeJSON(path string, r result) error {
	out := struct {
		Env      env      `json:"env"`
		Runs     int      `json:"runs"`
		IdleMs   float64  `json:"idle_ms"`
		Target   float64  `json:"target_ratio"`
		Figures  []figure `json:"figures"`
		Wisp     series   `json:"wisp"`
		Floor    series   `json:"floor"`
		Warnings []string `json:"warnings,omitempty"`
	}{r.env, r.runs, ms(r.idle), targetRatio, r.figures(), r.wisp, r.floor, r.warnings}
	b, err := json.MarshalIndent(out, "", "  ")
	if err != nil {
		return err
	}
	return benchkit.WriteAtomic(path, append(b, '\n'))
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
func mib(kib int64) float64      { return float64(kib) / 1024 }

func num(v float64, unit string) string {
	if unit == "ms" && v >= 100 {
		return fmt.Sprintf("%.0f ms", v)
	}
	return fmt.Sprintf("%.1f %s", v, unit)
}

func orUnknown(s string) string {
	if s == "" {
		return "Go version unknown"
	}
	return s
}
