package main

import (
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/wispapp/wisp/bench/benchkit"
)

const (
	targetRatio  = 0.70 // Wisp MB/s / floor MB/s, same mode
	targetEchoMs = 5.0  // p99 keystroke → echo
)

// sectionIntro is written above the terminal section of BENCHMARKS.md
// (<!-- bench:terminal:begin --> … <!-- bench:terminal:end -->) when it is new.
const sectionIntro = "## Terminal: output throughput and keystroke echo\n\n" +
	"A real Wisp App started inside the driver's process with shell access on, watched by one WebSocket client on " +
	"`/ws?clientId=bench`. **Throughput** is the output of one run, started with `POST /api/terminal/run`, from the " +
	"POST to the run's `exit` event on the socket, in MB/s of what the command wrote (1 MB = 10^6 bytes): " +
	"`head -c 256M /dev/zero` and a newline-dense source (`yes | head -c 64M`), each as an interactive run (the " +
	"terminal's output processing on, `\\n` → `\\r\\n`) and as a `captureOutput` run (output processing off). Its " +
	"floor is the same command, started by the same shell, on a bare PTY (creack/pty; cooked for the interactive " +
	"mode, `OPOST` cleared for the captured one) read with a 32 KiB buffer until EIO, Wisp and the floor taking " +
	"turns. Target: at least 0.70 of the floor of the same mode. **Keystroke → echo** is one character sent as a " +
	"`terminal-input` frame to a `cat` run until the `stdout` event with its echo arrives (the line discipline " +
	"echoes it), against one byte written to a bare PTY running cat until it is read back, one sample of each in " +
	"turn. Target: p99 at most 5 ms. Every Wisp run is checked: events numbered without a gap, exactly the " +
	"expected stdout bytes (one more per newline when `\\n` becomes `\\r\\n`), no stderr, exit code 0 (143 for " +
	"the killed `cat`), and a captured run's answer agreeing with its stream. Driver: `bench/terminal`.\n\n"

// env is the run's header (benchkit.Env) and the shell the commands ran in.
type env struct {
	benchkit.Env
	Shell string
}

func environment() env {
	return env{Env: benchkit.InProcess("bench/terminal"), Shell: benchShell()}
}

// markdown renders the section that goes between the markers (and on stdout).
func (r *results) markdown() string {
	var b strings.Builder
	e, c := r.env, r.cfg
	fmt.Fprintf(&b, "%s · shell %s · throughput: %d runs of each case for Wisp and the floor, taking turns, after one small warm-up run of each; keystrokes: %d samples each of Wisp and the floor at each pause, after %d warm-up.\n\n",
		e.Line(), e.Shell, c.runs, c.echoSamples, c.echoWarmup)
	r.throughputTable(&b)
	r.echoTable(&b)
	r.codecTable(&b)
	r.notes(&b)
	return strings.TrimRight(b.String(), "\n")
}

func (r *results) throughputTable(b *strings.Builder) {
	best := 0.0
	for _, c := range r.cases {
		best = math.Max(best, benchkit.Median(c.floor))
	}
	b.WriteString("| Source | Mode | Wisp MB/s | floor MB/s (same mode) | Wisp / floor | Wisp / best floor | cores busy, Wisp / floor | client decoding, share of the Wisp run | Target | Result |\n")
	b.WriteString("|---|---|--:|--:|--:|--:|--:|--:|:-:|---|\n")
	for _, c := range r.cases {
		w, f := benchkit.Median(c.wisp), benchkit.Median(c.floor)
		fmt.Fprintf(b, "| `%s` | %s | %.1f | %.1f | **%.2f×** | %.2f× | %.2f / %.2f | %.0f%% | ≥ %.2f× | %s |\n",
			cell(c.src.command), cell(c.mode.name), w, f, w/f, w/best, cores(c.wispCPU, c.wispWall), cores(c.floorCPU, c.floorWall),
			100*benchkit.Median(c.decodeShare), targetRatio, benchkit.Verdict(w/f >= targetRatio))
	}
	fmt.Fprintf(b, "\nMedians of %d runs; best floor: %.1f MB/s. Slowest Wisp run of each case, in the same order: %s MB/s. "+
		"Cores busy is the CPU time (user + system) of this process (Wisp, the client, the floor's reader) and of the command, over the run's wall time, out of %d. "+
		"On the wire each source byte took %s frame bytes, in about %s stdout events per run.\n\n",
		r.cfg.runs, best, r.joinCases(func(c *tputCase) string { return fmt.Sprintf("%.1f", slowest(c.wisp)) }), r.env.CPUs,
		r.joinCases(func(c *tputCase) string { return fmt.Sprintf("%.2f", c.wirePerByte) }),
		r.joinCases(func(c *tputCase) string { return benchkit.Thousands(c.framesPerRun) }))
}

func (r *results) joinCases(f func(*tputCase) string) string {
	parts := make([]string, len(r.cases))
	for i, c := range r.cases {
		parts[i] = f(c)
	}
	return strings.Join(parts, " / ")
}

func (r *results) echoTable(b *strings.Builder) {
	b.WriteString("| Keystroke → echo (`terminal-input` over `/ws` → its `stdout` event; floor: write to a bare PTY → read) | wisp p50 | wisp p99 | wisp max | floor p50 | floor p99 | floor max | Target | Result |\n")
	b.WriteString("|---|--:|--:|--:|--:|--:|--:|:-:|---|\n")
	for _, e := range r.echo {
		wp50, wp99, wmax := benchkit.Percentile(e.wisp, 50), benchkit.Percentile(e.wisp, 99), benchkit.Percentile(e.wisp, 100)
		fp50, fp99, fmax := benchkit.Percentile(e.floor, 50), benchkit.Percentile(e.floor, 99), benchkit.Percentile(e.floor, 100)
		fmt.Fprintf(b, "| typed %s after the previous echo came back | %s | %s | %s | %s | %s | %s | p99 ≤ %.0f ms | %s |\n",
			benchkit.Msec(ms(e.pause)), benchkit.Msec(wp50), benchkit.Msec(wp99), benchkit.Msec(wmax), benchkit.Msec(fp50), benchkit.Msec(fp99), benchkit.Msec(fmax), targetEchoMs, benchkit.Verdict(wp99 <= targetEchoMs))
	}
	b.WriteString("\nShare of Wisp samples over 2 ms, in the same order: ")
	for i, e := range r.echo {
		if i > 0 {
			b.WriteString(" / ")
		}
		fmt.Fprintf(b, "%.1f%%", 100-pctAtMost(e.wisp, 2))
	}
	b.WriteString(". Wisp sends a small read (under 1 KiB, like an echo) at once and gathers only bulk reads that come " +
		"within 2 ms of its previous event (`batchWindow`, terminal/pump.go), so an echo is never held: both series " +
		"measure the path itself.\n\n")
}

func (r *results) codecTable(b *strings.Builder) {
	if len(r.codec) == 0 {
		return
	}
	b.WriteString("JSON alone, one goroutine, full 32 KiB output events (context for the throughput: the run, Wisp and the client share two cores):\n\n")
	b.WriteString("| Output | frame bytes per output byte | Wisp's encoder (`TerminalOutput.AppendJSON`) | client: `json.Unmarshal` | client: counting decoder |\n|---|--:|--:|--:|--:|\n")
	for _, c := range r.codec {
		fmt.Fprintf(b, "| %s | %.2f | %.0f MB/s | %.0f MB/s | %.0f MB/s |\n", c.name, c.wirePerByte, c.encode, c.decode, c.count)
	}
	b.WriteString("\n")
}

func (r *results) notes(b *strings.Builder) {
	if len(r.problems) == 0 {
		fmt.Fprintf(b, "Checked: all %d Wisp runs streamed their events numbered without a gap, exactly the expected stdout bytes and no stderr, and ended with the expected exit code.\n\n", r.checked)
	} else {
		fmt.Fprintf(b, "**CHECKS FAILED** (%d problems in %d runs checked):\n\n", len(r.problems), r.checked)
		for _, p := range r.problems {
			fmt.Fprintf(b, "- %s\n", p)
		}
		b.WriteString("\n")
	}
	if r.cfg.client == "count" {
		b.WriteString("Client: each frame's fields are decoded with `encoding/json`, but the data of an output event over 4 KiB is only " +
			"counted, by a one-pass scanner that resolves escapes as `encoding/json` does (the client's decoding share above is this scanner's). ")
	} else {
		b.WriteString("Client: every frame is decoded with `encoding/json` (`--client=json`). ")
	}
	if p := r.probe; p != nil {
		if p.dropped {
			fmt.Fprintf(b, "A client that decodes every frame with `encoding/json` was given one more interactive run of `%s`: "+
				"the hub closed its socket with 1013 (%q) %.1f s into the run, after it had decoded %.1f of %.1f MB "+
				"(`json.Unmarshal` alone decodes NUL output at %.0f MB/s, see the JSON table; a run waits for its viewers while they are behind, but not for more than 5 s at a time, after which the hub drops a client whose queue passes its limit).",
				zeroSource(r.cfg.zeroMiB).command, p.closeText, p.after.Seconds(), float64(p.got)/1e6, float64(p.want)/1e6, r.codec[0].decode)
		} else {
			fmt.Fprintf(b, "A client that decodes every frame with `encoding/json` was given one more interactive run of `%s` and got all of it at %.1f MB/s: the run's flow control paused the command while the client was behind, instead of dropping the client.",
				zeroSource(r.cfg.zeroMiB).command, p.mbps)
		}
	}
	b.WriteString("\n\nLimits: the floors read the PTY in the same process and send nothing anywhere; Wisp also batches, " +
		"encodes every event as JSON (a NUL byte is six bytes on the wire), keeps scrollback and queues the frame for " +
		"the socket, and the client reads and decodes it, all on the same two cores as the command. The floors' reads " +
		"share the process with Wisp's garbage collector.\n")
}

// cell escapes the pipes of a table cell (GitHub tables split cells at "|",
// even in code spans).
func cell(s string) string { return strings.ReplaceAll(s, "|", `\|`) }

// cores is the median over runs of CPU time / wall time.
func cores(cpu []cpuTimes, wall []time.Duration) float64 {
	xs := make([]float64, len(cpu))
	for i := range cpu {
		xs[i] = (cpu[i].self + cpu[i].children).Seconds() / wall[i].Seconds()
	}
	return benchkit.Median(xs)
}

// pctAtMost is the share of xs at most limit, in percent.
func pctAtMost(xs []float64, limit float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	n := 0
	for _, x := range xs {
		if x <= limit {
			n++
		}
	}
	return 100 * float64(n) / float64(len(xs))
}

func slowest(xs []float64) float64 {
	m := math.Inf(1)
	for _, x := range xs {
		m = math.Min(m, x)
	}
	return m
}
