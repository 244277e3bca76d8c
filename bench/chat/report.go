package main

import (
	"fmt"
	"strings"

	"github.com/wispapp/wisp/bench/benchkit"
)

const (
	targetFirstMs = 5.0     // p50 request → first token
	targetTPS     = 20000.0 // median tokens/s through one stream
	elizaFirstMs  = 125.0   // elizaOS on this machine kind, for context
)

// sectionIntro is written above the chat section of BENCHMARKS.md
// (<!-- bench:chat:begin --> … <!-- bench:chat:end -->) when it is new.
const sectionIntro = "## Chat: first token and streaming throughput\n\n" +
	"A real Wisp App started inside the driver's process, answered by the fake model (`runtime/llm/llmtest`, " +
	"OpenAI dialect, no delay between chunks) and reached over loopback by one keep-alive HTTP client. " +
	"**First token** is the time from `POST /api/conversations/{id}/messages/stream` (each run in a fresh " +
	"conversation) to the first `{\"type\":\"token\"` frame; its floor is a bare net/http server in the same " +
	"process that writes one SSE frame and flushes, read by the same client, Wisp and the floor taking turns. " +
	"Target: p50 at most 5 ms (elizaOS takes about 125 ms on this machine kind). **Throughput** is token frames " +
	"per second through one stream of a long reply, from the request to the `done` frame, with every event " +
	"written to `run_events` (in group commits) before its frame is sent. Its floors, measured in the same loop: " +
	"the bare SSE server writing the same frames with a flush per frame, and mattn/go-sqlite3 with Wisp's DSN " +
	"(WAL, `synchronous=NORMAL`) inserting the same rows into a table shaped like `run_events`, one row per commit " +
	"and batched. Wisp is compared with the lower of the SSE floor and the batched SQLite floor; target: at least " +
	"20,000 tokens/s. Two context rows show how fast the fake model streams on its own and through Wisp's model " +
	"client (`runtime/llm`), since both share the machine's cores with Wisp. Every Wisp stream is checked: its " +
	"`done` frame's `fullText` equals the joined chunks, and its run's log on disk (read from `wisp.db` after Wisp " +
	"stops) is compacted, ends at the last frame's number and its text events give back the reply. Driver: `bench/chat`.\n\n"

// markdown renders the section that goes between the markers (and on stdout).
func (r *results) markdown() string {
	var b strings.Builder
	e, c := r.env, r.cfg
	fmt.Fprintf(&b, "%s · first token: %d runs each of Wisp and the floor, taking turns, after %d warm-up runs; throughput: %d streams each, after one warm-up.\n\n",
		e.Line(), c.runs, c.warmup, c.tputRuns)
	wp50, fp50 := r.firstTokenTable(&b)
	wisp, sse, batch := r.throughputTable(&b)
	r.notes(&b)
	fmt.Fprintf(&b, "\n%s\n", r.interpretation(wp50, fp50, wisp, sse, batch))
	fmt.Fprintf(&b, "\nFor context (not measured in this run): elizaOS takes about %.0f ms to its first token on this machine kind, %.0f× Wisp's p50 above.\n",
		elizaFirstMs, elizaFirstMs/wp50)
	return strings.TrimRight(b.String(), "\n")
}

// firstTokenTable writes the latency table and returns both p50s.
func (r *results) firstTokenTable(b *strings.Builder) (wp50, fp50 float64) {
	wp50, wp95 := benchkit.Percentile(r.firstWisp, 50), benchkit.Percentile(r.firstWisp, 95)
	fp50, fp95 := benchkit.Percentile(r.firstFloor, 50), benchkit.Percentile(r.firstFloor, 95)
	b.WriteString("| Figure | wisp p50 | wisp p95 | floor p50 | floor p95 | wisp / floor (p50) | Target | Result |\n")
	b.WriteString("|---|--:|--:|--:|--:|--:|:-:|---|\n")
	fmt.Fprintf(b, "| POST `…/messages/stream` → first `token` frame (fresh conversation each) | %s | %s | %s | %s | **%.1f×** | p50 ≤ %.0f ms | %s |\n\n",
		benchkit.Msec(wp50), benchkit.Msec(wp95), benchkit.Msec(fp50), benchkit.Msec(fp95), wp50/fp50, targetFirstMs, benchkit.Verdict(wp50 <= targetFirstMs))
	return wp50, fp50
}

// throughputTable writes the throughput table and verdict and returns the
// medians of Wisp, the SSE floor and the batched SQLite floor.
func (r *results) throughputTable(b *strings.Builder) (wisp, sse, batch float64) {
	c := r.cfg
	long := longReply(c.tokens)
	wisp, sse, batch = benchkit.Median(r.wispTPS), benchkit.Median(r.sseFPS), benchkit.Median(r.sqlBatch)
	fmt.Fprintf(b, "Throughput: one reply of %s one-word chunks (%.1f KB of text). Every token frame carries the text so far (`fullText`), "+
		"so one stream is %.1f MB of SSE; the reply is kept moderate for that reason.\n\n",
		benchkit.Thousands(float64(c.tokens)), float64(len(strings.Join(long, "")))/1e3, float64(sseBytes(long))/1e6)
	b.WriteString("| Figure | median | p10 (slow end) | wisp / this |\n|---|--:|--:|--:|\n")
	row := func(name, unit string, xs []float64) {
		med := benchkit.Median(xs)
		fmt.Fprintf(b, "| %s | %s %s | %s %s | %.2f× |\n", name, benchkit.Thousands(med), unit, benchkit.Thousands(benchkit.Percentile(xs, 10)), unit, wisp/med)
	}
	fmt.Fprintf(b, "| **Wisp**: tokens/s, every event in `run_events` before its frame is sent | %s tokens/s | %s tokens/s | — |\n",
		benchkit.Thousands(wisp), benchkit.Thousands(benchkit.Percentile(r.wispTPS, 10)))
	row("Floor: bare SSE server, the same frames, a flush per frame", "frames/s", r.sseFPS)
	row("Floor: SQLite insert, one row per commit", "rows/s", r.sqlOne)
	row(fmt.Sprintf("Floor: SQLite insert, %d rows per commit", c.batch), "rows/s", r.sqlBatch)
	row("Context: the fake model streaming the reply to a bare client", "chunks/s", r.fakeCPS)
	row("Context: the same through Wisp's model client (`runtime/llm`, openai-go), nothing persisted or sent", "deltas/s", r.modelDPS)

	lower, lowerName := sse, "bare SSE"
	if batch < sse {
		lower, lowerName = batch, "batched SQLite"
	}
	fmt.Fprintf(b, "\nWisp / lower floor (%s): **%.2f×**. Target ≥ %s tokens/s: %s.\n", lowerName, wisp/lower, benchkit.Thousands(targetTPS), benchkit.Verdict(wisp >= targetTPS))
	return wisp, sse, batch
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
		fmt.Fprintf(b, "\nChecked: all %d Wisp streams ended with a `done` frame whose `fullText` equals the joined chunks, and each run's log in `wisp.db` (read after Wisp stopped) was compacted, ends at the last frame's number, and its text events give back the reply.\n", r.checked)
		return
	}
	fmt.Fprintf(b, "\n**CHECKS FAILED** (%d of %d streams checked):\n\n", len(r.problems), r.checked)
	for _, p := range r.problems {
		fmt.Fprintf(b, "- %s\n", p)
	}
}

// interpretation is the reading of the figures, in two sentences.
func (r *results) interpretation(wp50, fp50, wisp, sse, batch float64) string {
	share := 100 * wisp / batch // batched inserts' time per row, as a share of Wisp's per token
	persist := "persistence is not the bottleneck"
	if share > 50 {
		persist = "persistence is a large share of the cost"
	}
	persist += fmt.Sprintf(" (plain batched inserts of the same rows would take %.0f%% of Wisp's time per token", share)
	if r.commitsNote == "" && r.commitsLong > 0 {
		persist += fmt.Sprintf(", and the events are group-committed, ≥ %.0f per commit", float64(r.cfg.tokens+1)/float64(r.commitsLong))
	}
	return fmt.Sprintf("Reading: Wisp adds %.2f ms to the first token over a bare SSE reply. It streams at %.0f%% of the bare SSE rate; %s), "+
		"while reading the model's stream alone (fake model + `runtime/llm`) takes %.0f%% of it.",
		wp50-fp50, 100*wisp/sse, persist, 100*wisp/benchkit.Median(r.modelDPS))
}
