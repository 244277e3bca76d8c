package main

import (
	"fmt"
	"strings"

	"github.com/wispapp/wisp/bench/benchkit"
)

const (
	targetFirstRatio = 2.0     // Wisp / relay, first token p50
	targetCPURatio   = 1.5     // Wisp / relay, server CPU per reply (median)
	targetFirstMs    = 5.0     // p50 request → first token, short reply
	targetTPS        = 20000.0 // median tokens/s through the long reply
	elizaFirstMs     = 125.0   // elizaOS on this machine kind, for context
)

// sectionIntro is written above the chat section of BENCHMARKS.md
// (<!-- bench:chat:begin --> … <!-- bench:chat:end -->) when it is new.
const sectionIntro = "## Chat: first token and streaming throughput\n\n" +
	"Wisp against a **bare relay**, the least any server that passes a model's reply on must do. The driver runs one " +
	"keep-alive HTTP client and starts three child processes, each its own executable re-run with `--serve`: the fake " +
	"model (`runtime/llm/llmtest`, OpenAI protocol, no delay between chunks), and Wisp and the relay, two processes of " +
	"the same kind, each on loopback and answered by that fake model. Wisp is a real App: every event is in " +
	"`run_events` (group commits) before a client sees it, and the run's log is compacted after its end. The relay " +
	"(`bench/chat/relay.go`) reads the client's message, asks the model with net/http, reads its SSE with bufio, " +
	"decodes each chunk with encoding/json into a small struct and writes each text delta as an SSE frame " +
	"(`{\"type\":\"token\",\"text\":…}`, flushed), then a `done` frame: nothing persisted, no model SDK. Wisp streams in " +
	"its delta dialect (the UI's). For a short reply (3 chunks, each in a fresh conversation, created before the clock " +
	"starts) and a long one, in interleaved rounds (the first of each pair alternating), the driver measures " +
	"**first token**, from the request to the first `token` frame at the client, and **server CPU per reply**: the " +
	"server process's own user + system time (its `getrusage`, read through a control listener) from before the " +
	"request until it has gone quiet after the reply (two readings 20 ms apart within 0.2 ms), so work done after " +
	"the `done` frame (compaction) counts. Targets: Wisp's first token p50 at most 2× the relay's, its CPU per reply " +
	"at most 1.5× (medians), and in absolute terms a short reply's first token p50 at most 5 ms and the long reply " +
	"at least 20,000 tokens/s. Every Wisp stream is checked: its `done` frame's `fullText` equals the joined chunks, " +
	"and its run's log on disk (read from `wisp.db` after Wisp stops) is compacted, ends at the last frame's number " +
	"and its text events give back the reply. Driver: `bench/chat`.\n\n"

// markdown renders the section that goes between the markers (and on stdout).
func (r *results) markdown() string {
	var b strings.Builder
	e, c := r.env, r.cfg
	fmt.Fprintf(&b, "%s · the fake model, Wisp and the relay each a child process · %d rounds after %d warm-up rounds; "+
		"each round, per server: %d short replies, then one of %s chunks · load average %s before the rounds, %s after "+
		"(the machine is shared: ratios of medians, Wisp and the relay taking turns, are what to compare).\n\n",
		e.Line(), c.rounds, c.warmup, c.batch, benchkit.Thousands(float64(c.tokens)), r.loadBefore, r.loadAfter)
	b.WriteString("| Reply | first token: wisp p50 | relay p50 | wisp / relay (≤ 2×) | server CPU per reply: wisp | relay | wisp / relay (≤ 1.5×) | tokens/s: wisp | relay |\n")
	b.WriteString("|---|--:|--:|--:|--:|--:|--:|--:|--:|\n")
	row := func(name string, w, f figures) (first, cpu float64) {
		wf, ff := benchkit.Median(w.first), benchkit.Median(f.first)
		wc, fc := benchkit.Median(w.cpu), benchkit.Median(f.cpu)
		first, cpu = wf/ff, wc/fc
		fmt.Fprintf(&b, "| %s | %s | %s | **%.2f×** %s | %s | %s | **%.2f×** %s | %s | %s |\n", name,
			benchkit.Msec(wf), benchkit.Msec(ff), first, benchkit.Verdict(first <= targetFirstRatio),
			benchkit.Msec(wc), benchkit.Msec(fc), cpu, benchkit.Verdict(cpu <= targetCPURatio),
			benchkit.Thousands(benchkit.Median(w.tps)), benchkit.Thousands(benchkit.Median(f.tps)))
		return first, cpu
	}
	row(fmt.Sprintf("short (%d chunks)", len(shortReply)), r.shortWisp, r.shortRelay)
	row(fmt.Sprintf("long (%s chunks, %.0f KB)", benchkit.Thousands(float64(c.tokens)), float64(len(strings.Join(longReply(c.tokens), "")))/1e3),
		r.longWisp, r.longRelay)
	wp50, wp95 := benchkit.Percentile(r.shortWisp.first, 50), benchkit.Percentile(r.shortWisp.first, 95)
	tps := benchkit.Median(r.longWisp.tps)
	fmt.Fprintf(&b, "\nAbsolute: a short reply's first token p50 %s (p95 %s), target ≤ %.0f ms: %s. The long reply at %s tokens/s, target ≥ %s: %s. "+
		"Server CPU per round's p90 (slow end): Wisp %s short, %s long; relay %s short, %s long.\n",
		benchkit.Msec(wp50), benchkit.Msec(wp95), targetFirstMs, benchkit.Verdict(wp50 <= targetFirstMs),
		benchkit.Thousands(tps), benchkit.Thousands(targetTPS), benchkit.Verdict(tps >= targetTPS),
		benchkit.Msec(benchkit.Percentile(r.shortWisp.cpu, 90)), benchkit.Msec(benchkit.Percentile(r.longWisp.cpu, 90)),
		benchkit.Msec(benchkit.Percentile(r.shortRelay.cpu, 90)), benchkit.Msec(benchkit.Percentile(r.longRelay.cpu, 90)))
	fmt.Fprintf(&b, "\nPer-round paired CPU ratios (Wisp / relay in the same round), median: short %.2f×, long %.2f×.\n",
		benchkit.Median(paired(r.shortWisp.cpu, r.shortRelay.cpu)), benchkit.Median(paired(r.longWisp.cpu, r.longRelay.cpu)))
	r.notes(&b)
	fmt.Fprintf(&b, "\nReading: a long reply is dominated by the work per token (read the model's chunk, log it, send it), where Wisp's "+
		"CPU is %.2f× the relay's; a short reply is dominated by the fixed work of keeping the conversation, which the relay "+
		"does not do at all (the user's message and the run, the user's and the reply's display rows, the run's events, its end "+
		"and its log's compaction, the /ws journal: %d SQLite transactions while the stream lasts and more after it, each costing "+
		"CPU and latency), so its ratios measure that persistence more than the streaming path.\n",
		benchkit.Median(r.longWisp.cpu)/benchkit.Median(r.longRelay.cpu), r.commitsShort)
	fmt.Fprintf(&b, "\nFor context (not measured in this run): elizaOS takes about %.0f ms to its first token on this machine kind, %.0f× Wisp's p50 above.\n",
		elizaFirstMs, elizaFirstMs/wp50)
	return strings.TrimRight(b.String(), "\n")
}

// notes writes the group commit count and the result of the checks.
func (r *results) notes(b *strings.Builder) {
	events := r.cfg.tokens + 1
	if r.commitsNote != "" {
		fmt.Fprintf(b, "\nGroup commits: not counted (%s).\n", r.commitsNote)
	} else if r.commitsLong > 0 {
		fmt.Fprintf(b, "\nGroup commits, counted from SQLite's WAL during one more stream: its %s run events went to disk in at most %d transactions, "+
			"so at least %.0f events per commit on average (the count includes the user message, run record, display rows and end of run: a %d-chunk reply takes %d transactions in all).\n",
			benchkit.Thousands(float64(events)), r.commitsLong, float64(events)/float64(r.commitsLong), len(shortReply), r.commitsShort)
	}
	if len(r.problems) == 0 {
		fmt.Fprintf(b, "\nChecked: all %d Wisp streams ended with a `done` frame whose `fullText` equals the joined chunks, and each run's log in `wisp.db` (read after Wisp stopped) was compacted, ends at the last frame's number, and its text events give back the reply; every relay stream was checked the same way against its frames.\n", r.checked)
		return
	}
	fmt.Fprintf(b, "\n**CHECKS FAILED** (%d of %d streams checked):\n\n", len(r.problems), r.checked)
	for _, p := range r.problems {
		fmt.Fprintf(b, "- %s\n", p)
	}
}

// paired is the ratio of each round's Wisp figure to the relay's in that round.
func paired(wisp, relay []float64) []float64 {
	out := make([]float64, 0, len(wisp))
	for i := range min(len(wisp), len(relay)) {
		out = append(out, wisp[i]/relay[i])
	}
	return out
}
