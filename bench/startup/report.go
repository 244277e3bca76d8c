package main

import (
	"debug/buildinfo"
	"encoding/json"
	"fmt"
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
	AnonMiB   []float64 `json:"rss_anon_mib"`
	Unclean   []string  `json:"unclean_exits,omitempty"`
}

func (s *series) add(x sample) {
	s.StartupMs = append(s.StartupMs, ms(x.startup))
	s.RSSMiB = append(s.RSSMiB, mib(x.rssKiB))
	s.AnonMiB = append(s.AnonMiB, mib(x.anonKiB))
	if x.unclean != "" {
		s.Unclean = append(s.Unclean, x.unclean)
	}
}

// The targets' names, in the order they take turns.
const (
	wispName     = "wisp"
	floorName    = "floor"
	floorSDKName = "floor-sdk" // the floor built with -tags sdk
)

// env is the run's header (commit, binaries, host) and the Go version each
// binary was built with.
type env struct {
	benchkit.Env
	Built map[string]string `json:"built_with"`
}

type result struct {
	env      env
	runs     int
	idle     time.Duration
	names    []string // targets in the order they took turns
	series   map[string]*series
	warnings []string
}

func newResult(targets []*target, runs int, idle time.Duration) *result {
	r := &result{runs: runs, idle: idle, series: map[string]*series{}}
	var bins []benchkit.Binary
	r.env.Built = map[string]string{}
	for _, t := range targets {
		r.names = append(r.names, t.name)
		r.series[t.name] = &series{}
		bins = append(bins, benchkit.StatBinary(t.name, t.path))
		if bi, err := buildinfo.ReadFile(t.path); err == nil {
			r.env.Built[t.name] = bi.GoVersion
		}
	}
	r.env.Env = benchkit.Environment(bins...)
	return r
}

// figure is one row of the table.
type figure struct {
	Name          string  `json:"name"`
	Unit          string  `json:"unit"`
	Wisp          summary `json:"wisp"`
	Floor         summary `json:"floor"`
	FloorSDK      summary `json:"floor_sdk"` // zero when the SDK floor was not measured
	Ratio         float64 `json:"ratio"`     // wisp median / floor median
	Pass          bool    `json:"pass"`
	ElizaOverWisp float64 `json:"eliza_over_wisp"`
	elizaDisplay  string
}

// withSDK reports whether the SDK floor was measured.
func (r *result) withSDK() bool { return r.series[floorSDKName] != nil }

// samples is the series of one figure of target name (nil when not measured).
func (r *result) samples(name string, pick func(*series) []float64) []float64 {
	if s := r.series[name]; s != nil {
		return pick(s)
	}
	return nil
}

func (r *result) figures() []figure {
	mk := func(name, unit string, pick func(*series) []float64) figure {
		fig := figure{Name: name, Unit: unit,
			Wisp: summarize(r.samples(wispName, pick)), Floor: summarize(r.samples(floorName, pick))}
		if r.withSDK() {
			fig.FloorSDK = summarize(r.samples(floorSDKName, pick))
		}
		fig.Ratio = fig.Wisp.Median / fig.Floor.Median
		fig.Pass = fig.Ratio <= targetRatio
		return fig
	}
	start := mk("Start → first 200 on `/api/status`", "ms", func(s *series) []float64 { return s.StartupMs })
	start.ElizaOverWisp = elizaStartupMs / start.Wisp.Median
	start.elizaDisplay = fmt.Sprintf("%.0f ms", elizaStartupMs)
	rss := mk(fmt.Sprintf("Idle RSS (VmRSS after %v)", r.idle), "MiB", func(s *series) []float64 { return s.RSSMiB })
	rss.ElizaOverWisp = elizaRSSBytes / (rss.Wisp.Median * (1 << 20))
	rss.elizaDisplay = elizaRSSDisplay
	anon := mk(fmt.Sprintf("Idle private memory (RssAnon after %v)", r.idle), "MiB", func(s *series) []float64 { return s.AnonMiB })
	return []figure{start, rss, anon}
}

// markdown renders the section that goes between the markers (and on stdout).
func (r *result) markdown() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s · %d rounds of %s in turn, each start on an existing database.\n\n",
		r.env.Line(), r.runs, strings.Join(r.names, ", "))

	sdk := r.withSDK()
	b.WriteString("| Figure | wisp median | wisp p90 | floor median | floor p90 |")
	if sdk {
		b.WriteString(" floor+SDKs median |")
	}
	b.WriteString(" wisp / floor | Target | Result |\n|---|--:|--:|--:|--:|")
	if sdk {
		b.WriteString("--:|")
	}
	b.WriteString("--:|:-:|---|\n")
	figs := r.figures()
	for _, f := range figs {
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s |", f.Name, num(f.Wisp.Median, f.Unit), num(f.Wisp.P90, f.Unit),
			num(f.Floor.Median, f.Unit), num(f.Floor.P90, f.Unit))
		if sdk {
			fmt.Fprintf(&b, " %s |", num(f.FloorSDK.Median, f.Unit))
		}
		fmt.Fprintf(&b, " **%.2f×** | ≤ %.0f× | %s |\n", f.Ratio, targetRatio, benchkit.Verdict(f.Pass))
	}
	if sdk {
		b.WriteString("\n" + sdkCost(figs) + "\n")
	}

	fmt.Fprintf(&b, "\nFor context (not measured in this run): elizaOS 1.7.2 on this machine kind takes %s from restart to its first 200 and holds %s idle, %.0f× and %.0f× Wisp's medians above.\n",
		figs[0].elizaDisplay, figs[1].elizaDisplay, figs[0].ElizaOverWisp, figs[1].ElizaOverWisp)

	var built, clean []string
	for _, name := range r.names {
		built = append(built, fmt.Sprintf("%s %s", name, orUnknown(r.env.Built[name])))
		clean = append(clean, fmt.Sprintf("%s %d/%d", name, r.runs-len(r.series[name].Unclean), r.runs))
	}
	fmt.Fprintf(&b, "\nBuilt with: %s. Clean exit (status 0) on SIGTERM: %s.\n", strings.Join(built, ", "), strings.Join(clean, ", "))
	if len(r.warnings) > 0 {
		b.WriteString("\nWarnings:\n\n")
		for _, w := range r.warnings {
			fmt.Fprintf(&b, "- %s\n", w)
		}
	}
	return strings.TrimRight(b.String(), "\n")
}

// sdkCost says what linking the model SDKs costs (floor+SDKs − floor) and what
// is left for Wisp's own code (wisp − floor+SDKs), in medians.
func sdkCost(figs []figure) string {
	start, rss, anon := figs[0], figs[1], figs[2]
	return fmt.Sprintf("The model SDKs (Anthropic's and OpenAI's, linked and a client of each built) cost %s of start-up, %s of idle RSS "+
		"and %s of private memory (floor+SDKs − floor); Wisp's own work on top of that is %s, %s and %s (wisp − floor+SDKs). "+
		"RSS counts the pages of the executable the kernel has mapped, which grow with the binary; RssAnon is the memory the process itself holds.",
		signed(start.FloorSDK.Median-start.Floor.Median, "ms"), signed(rss.FloorSDK.Median-rss.Floor.Median, "MiB"),
		signed(anon.FloorSDK.Median-anon.Floor.Median, "MiB"),
		signed(start.Wisp.Median-start.FloorSDK.Median, "ms"), signed(rss.Wisp.Median-rss.FloorSDK.Median, "MiB"),
		signed(anon.Wisp.Median-anon.FloorSDK.Median, "MiB"))
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
	for _, name := range r.names {
		if s := r.series[name]; len(s.Unclean) > 0 {
			out = append(out, fmt.Sprintf("UNCLEAN EXIT:  %s did not exit with status 0 after SIGTERM in %d of %d runs; first: %s",
				name, len(s.Unclean), r.runs, s.Unclean[0]))
		}
	}
	return out
}

func writeJSON(path string, r *result) error {
	out := struct {
		Env      env                `json:"env"`
		Runs     int                `json:"runs"`
		IdleMs   float64            `json:"idle_ms"`
		Target   float64            `json:"target_ratio"`
		Figures  []figure           `json:"figures"`
		Series   map[string]*series `json:"series"`
		Warnings []string           `json:"warnings,omitempty"`
	}{r.env, r.runs, ms(r.idle), targetRatio, r.figures(), r.series, r.warnings}
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

// signed renders a difference with its sign: "+1.2 ms", "-0.3 MiB".
func signed(v float64, unit string) string {
	return fmt.Sprintf("%+.1f %s", v, unit)
}

func orUnknown(s string) string {
	if s == "" {
		return "Go version unknown"
	}
	return s
}
