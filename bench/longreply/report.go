package main

import (
	"fmt"
	"strings"

	"github.com/wispapp/wisp/bench/benchkit"
)

const (
	targetDeltaBytes = 1.5  // Wisp delta bytes / bare-delta bytes, at the longest length
	targetDeltaCPU   = 2.0  // Wisp delta CPU / relay-floor CPU, at the longest length
	targetDiskToken  = 30.0 // run_events bytes per streamed token after compaction
)

// sectionIntro is written above the longreply section of BENCHMARKS.md
// (<!-- bench:longreply:begin --> … <!-- bench:longreply:end -->) when it is new.
const sectionIntro = "## Long replies: bytes, CPU and disk as replies grow\n\n" +
	"How the cost of one reply grows with its length. A real Wisp App started inside the driver's process, " +
	"answered by the fake model (`runtime/llm/llmtest`, OpenAI dialect, one word per chunk, no delay), streams " +
	"replies of 500 to 32,000 words through `POST /api/conversations/{id}/messages/stream` (a fresh conversation " +
	"each) in Eliza's dialect (every token frame repeats the reply so far in `fullText`, so its bytes grow with the " +
	"square of the length) and in the delta dialect (`?dialect=delta`, docs/chat.md). Two floors, served by a bare " +
	"net/http server in the same process and read by the same keep-alive client, take turns with Wisp: the " +
	"**bare-delta floor** writes the same chunks as `id: N` + `data: {\"type\":\"token\",\"text\":\"<chunk>\"}` frames, " +
	"flushing each (Wisp flushes once the frames ready together are out), then a `done` frame with the `fullText`; the **relay floor** asks the fake model for the same " +
	"reply over its OpenAI protocol, decodes it with Wisp's model client (`runtime/llm`) and re-sends each delta the " +
	"same way, persisting nothing. Per stream: the bytes of the SSE body; the wall time from the request to the end " +
	"of the body, which the `done` frame ends; the **CPU time of the whole driver process** over the same interval " +
	"(`getrusage(RUSAGE_SELF)`: Wisp or the floor, the fake model, SQLite, the kernel's loopback work, and a client " +
	"that only reads the bytes into memory, parsing nothing); Wisp's log compaction, which runs right after the " +
	"`done` frame, is timed apart, up to `runs.compacted` being set (polled every 2 ms); and, after the stream, a client's **parse " +
	"time**: JSON-decoding every `data:` line of the bytes kept in memory. Targets at 32,000 words: Wisp's delta " +
	"stream at most 1.5× the bare-delta floor's bytes, and at most 2× the relay floor's CPU. **Disk**: a fresh Wisp " +
	"streams many replies; `run_events` is sized after Wisp stops (each run's log is compacted when it ends, and " +
	"Stop waits for it), and again with the same runs' logs as they were before compaction, one row per token " +
	"rebuilt from the compacted rows' cut points and written through Wisp's own store (`store.AppendRunEvents`, in " +
	"group commits) into a copy of the database whose `run_events` was emptied. Target: at most 30 bytes per " +
	"streamed token after compaction. Every stream is checked: its `done` frame's `fullText` equals the joined " +
	"chunks, and so does the delta client fold (docs/chat.md), or in Eliza's dialect the last token frame's " +
	"`fullText`; every compacted log's cut points give back the chunks. Driver: `bench/longreply`.\n\n"

// markdown renders the section that goes between the markers (and on stdout).
func (r *results) markdown() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s · %s\n\n", r.env.Line(), r.runText())
	r.bytesTable(&b)
	r.cpuTable(&b)
	r.wallTable(&b)
	r.parseTable(&b)
	r.diskTable(&b)
	r.checks(&b)
	fmt.Fprintf(&b, "\n%s\n", r.reading())
	return strings.TrimRight(b.String(), "\n")
}

// runText says how many streams each length had and how long the run took.
func (r *results) runText() string {
	var rounds []string
	for _, n := range r.cfg.lengths {
		s := fmt.Sprintf("%s words: %d", benchkit.Thousands(float64(n)), r.cfg.repeats(n))
		if e := r.cfg.elizaRuns(n); e != r.cfg.repeats(n) {
			s += fmt.Sprintf(" (Eliza's dialect %d, its stream being %s)", e, sizeText(median(r.byLen[n][wispEliza], bytesOf)))
		}
		rounds = append(rounds, s)
	}
	return fmt.Sprintf("rounds of the four streams in turn, after one warm-up round: %s; medians. Disk: %d replies of %s words. "+
		"The whole run took %.0f s; the driver's peak RSS was %s.",
		strings.Join(rounds, ", "), r.disk.replies, benchkit.Thousands(float64(r.disk.tokens)), r.took.Seconds(), sizeText(float64(r.peakRSS)))
}

// longest is the last length measured and its samples.
func (r *results) longest() (int, *[kinds][]sample) {
	n := r.cfg.lengths[len(r.cfg.lengths)-1]
	return n, r.byLen[n]
}

func (r *results) bytesTable(b *strings.Builder) {
	b.WriteString("**Bytes on the wire** (SSE body per reply)\n\n")
	b.WriteString("| Reply | its text | Wisp, Eliza dialect | Wisp, delta dialect | bare-delta floor | Eliza / floor | delta / floor |\n")
	b.WriteString("|--:|--:|--:|--:|--:|--:|--:|\n")
	for _, n := range r.cfg.lengths {
		row := r.byLen[n]
		e, d, f := median(row[wispEliza], bytesOf), median(row[wispDelta], bytesOf), median(row[bareDelta], bytesOf)
		fmt.Fprintf(b, "| %s words | %s | %s | %s | %s | %s× | **%.2f×** |\n", benchkit.Thousands(float64(n)),
			sizeText(float64(len(strings.Join(words(n), "")))), sizeText(e), sizeText(d), sizeText(f), benchkit.Thousands(e/f), d/f)
	}
	n, row := r.longest()
	ratio := median(row[wispDelta], bytesOf) / median(row[bareDelta], bytesOf)
	fmt.Fprintf(b, "\nTarget at %s words: Wisp's delta stream ≤ %.1f× the bare-delta floor's bytes: **%.2f×**, %s.\n\n",
		benchkit.Thousands(float64(n)), targetDeltaBytes, ratio, benchkit.Verdict(ratio <= targetDeltaBytes))
}

func (r *results) cpuTable(b *strings.Builder) {
	b.WriteString("**CPU per reply** (the driver process's CPU time from the request to the end of the stream: server, fake model, loopback, a client that only reads)\n\n")
	b.WriteString("| Reply | Wisp, Eliza | Wisp, delta | then log compaction | relay floor | bare-delta floor | Eliza / relay | delta / relay | delta + compaction / relay |\n")
	b.WriteString("|--:|--:|--:|--:|--:|--:|--:|--:|--:|\n")
	for _, n := range r.cfg.lengths {
		row := r.byLen[n]
		e, d, c := median(row[wispEliza], cpuOf), median(row[wispDelta], cpuOf), median(row[wispDelta], compactOf)
		rl, f := median(row[relay], cpuOf), median(row[bareDelta], cpuOf)
		fmt.Fprintf(b, "| %s words | %s | %s | %s | %s | %s | %.2f× | **%.2f×** | %.2f× |\n", benchkit.Thousands(float64(n)),
			timeText(e), timeText(d), timeText(c), timeText(rl), timeText(f), e/rl, d/rl, median(row[wispDelta], cpuAndCompactOf)/rl)
	}
	n, row := r.longest()
	ratio := median(row[wispDelta], cpuOf) / median(row[relay], cpuOf)
	paired := pairedRatios(row[wispDelta], row[relay], cpuOf)
	fmt.Fprintf(b, "\nTarget at %s words: Wisp's delta stream ≤ %.0f× the relay floor's CPU: **%.2f×** (per-round ratios: median %.2f×, p90 %.2f×), %s.\n\n",
		benchkit.Thousands(float64(n)), targetDeltaCPU, ratio, benchkit.Median(paired), benchkit.Percentile(paired, 90), benchkit.Verdict(ratio <= targetDeltaCPU))
}

// pairedRatios are a/b for the samples of the same round.
func pairedRatios(a, b []sample, f figure) []float64 {
	out := make([]float64, 0, min(len(a), len(b)))
	for i := range min(len(a), len(b)) {
		out = append(out, f(a[i])/f(b[i]))
	}
	return out
}

func (r *results) wallTable(b *strings.Builder) {
	b.WriteString("**Wall time per reply** (request → the `done` frame)\n\n")
	b.WriteString("| Reply | Wisp, Eliza | Wisp, delta | relay floor | bare-delta floor | Eliza / bare | delta / bare | delta / relay |\n")
	b.WriteString("|--:|--:|--:|--:|--:|--:|--:|--:|\n")
	for _, n := range r.cfg.lengths {
		row := r.byLen[n]
		e, d, rl, f := median(row[wispEliza], wallOf), median(row[wispDelta], wallOf), median(row[relay], wallOf), median(row[bareDelta], wallOf)
		fmt.Fprintf(b, "| %s words | %s | %s | %s | %s | %.1f× | %.2f× | %.2f× |\n", benchkit.Thousands(float64(n)),
			timeText(e), timeText(d), timeText(rl), timeText(f), e/f, d/f, d/rl)
	}
	b.WriteString("\n")
}

func (r *results) parseTable(b *strings.Builder) {
	b.WriteString("**A client's parse time** (JSON-decoding every `data:` line of the stream, after it, from memory)\n\n")
	b.WriteString("| Reply | Wisp, Eliza | Wisp, delta | bare-delta floor | Eliza / floor | delta / floor |\n")
	b.WriteString("|--:|--:|--:|--:|--:|--:|\n")
	var scaled []string
	for _, n := range r.cfg.lengths {
		row := r.byLen[n]
		e, d, f := median(row[wispEliza], parseOf), median(row[wispDelta], parseOf), median(row[bareDelta], parseOf)
		mark := ""
		if s := row[wispEliza]; len(s) > 0 && s[0].sampled() {
			mark = " ≈"
			scaled = append(scaled, fmt.Sprintf("Eliza's parse time at %s words is the decode time of the stream's first %s (whole frames), scaled by bytes to its %s",
				benchkit.Thousands(float64(n)), sizeText(float64(s[0].parsedSize)), sizeText(float64(s[0].bytes))))
		}
		fmt.Fprintf(b, "| %s words |%s %s | %s | %s | %s× | **%.2f×** |\n", benchkit.Thousands(float64(n)), mark,
			timeText(e), timeText(d), timeText(f), benchkit.Thousands(e/f), d/f)
	}
	b.WriteString("\nEach decode starts from a collected heap; for streams up to 16 MB the fastest of three decodes counts.")
	if len(scaled) > 0 {
		fmt.Fprintf(b, " ≈ The client keeps at most %d MiB of a stream; %s.", r.cfg.keep>>20, strings.Join(scaled, "; "))
	}
	b.WriteString("\n\n")
}

func (r *results) diskTable(b *strings.Builder) {
	d := r.disk
	tokens := float64(d.replies * d.tokens)
	fmt.Fprintf(b, "**Run log on disk** (`run_events` after %d replies of %s words, %s tokens streamed; counted by %s)\n\n",
		d.replies, benchkit.Thousands(float64(d.tokens)), benchkit.Thousands(tokens), d.method)
	b.WriteString("| `run_events` | rows | pages | bytes | per token | of which the logged JSON, per token |\n")
	b.WriteString("|---|--:|--:|--:|--:|--:|\n")
	row := func(name string, t tableStat) {
		fmt.Fprintf(b, "| %s | %s | %s | %s | **%.1f B** | %.1f B |\n", name, benchkit.Thousands(float64(t.rows)),
			benchkit.Thousands(float64(t.pages)), sizeText(float64(t.bytes)), float64(t.bytes)/tokens, float64(t.data)/tokens)
	}
	row("one row per token, as logs were before a commit merged its deltas (rebuilt, written through `store.AppendRunEvents`)", d.before)
	row("after compaction, as Wisp left it", d.after)
	fmt.Fprintf(b, "| for scale: the replies' own text | | | %s | %.1f B | |\n", sizeText(float64(d.textBytes)), float64(d.textBytes)/tokens)
	after := float64(d.after.bytes) / tokens
	fmt.Fprintf(b, "\nTarget: ≤ %.0f bytes per streamed token after compaction: **%.1f B**, %s. Compaction keeps %.1f%% of the log's bytes (%.1f× smaller). "+
		"For context, the whole `wisp.db` Wisp left (every table, the saved replies included) is %s, %.1f B per token.\n\n",
		targetDiskToken, after, benchkit.Verdict(after <= targetDiskToken), 100*float64(d.after.bytes)/float64(d.before.bytes),
		float64(d.before.bytes)/float64(d.after.bytes), sizeText(float64(d.after.file)), float64(d.after.file)/tokens)
}

// checks writes the result of the correctness checks.
func (r *results) checks(b *strings.Builder) {
	if len(r.problems) == 0 {
		fmt.Fprintf(b, "Checked: all %d streams and compacted logs: every `done` frame's `fullText` is the joined chunks, as is the delta fold "+
			"(or Eliza's last `fullText`) wherever the whole stream was kept, and every compacted log's cut points give back the chunks.\n", r.checked)
		return
	}
	fmt.Fprintf(b, "**CHECKS FAILED** (%d of %d checked):\n\n", len(r.problems), r.checked)
	for _, p := range r.problems {
		fmt.Fprintf(b, "- %s\n", p)
	}
}

// reading interprets the figures in a few sentences, from the shortest reply
// to the longest.
func (r *results) reading() string {
	first, last := r.cfg.lengths[0], r.cfg.lengths[len(r.cfg.lengths)-1]
	rf, rl := r.byLen[first], r.byLen[last]
	var b strings.Builder
	fmt.Fprintf(&b, "Reading: from %s to %s words (%.0f× longer) Eliza's stream grows %s× in bytes and the delta stream %.0f×; "+
		"the delta stream stays within %.0f%% of bare frames at every length, while at %s words Eliza's dialect costs %.1f× the delta "+
		"dialect's CPU and its parse takes %s× as long. ",
		thousands(first), thousands(last), float64(last)/float64(first),
		benchkit.Thousands(median(rl[wispEliza], bytesOf)/median(rf[wispEliza], bytesOf)),
		median(rl[wispDelta], bytesOf)/median(rf[wispDelta], bytesOf), 100*r.worstDeltaBytes(), thousands(last),
		median(rl[wispEliza], cpuOf)/median(rl[wispDelta], cpuOf),
		benchkit.Thousands(median(rl[wispEliza], parseOf)/median(rl[wispDelta], parseOf)))
	cpuFirst := median(rf[wispDelta], cpuOf) / median(rf[relay], cpuOf)
	cpuLast := median(rl[wispDelta], cpuOf) / median(rl[relay], cpuOf)
	how := "grows in step with the reply"
	if cpuLast > 1.25*cpuFirst {
		how = "grows faster than the reply"
	}
	fmt.Fprintf(&b, "Wisp's delta stream takes %.2f× the relay floor's CPU at %s words and %.2f× at %s: what Wisp adds to reading "+
		"the model (numbering, persisting every event in group commits, folding the reply) %s. ",
		cpuFirst, thousands(first), cpuLast, thousands(last), how)
	b.WriteString(r.compactionReading())
	d := r.disk
	tokens := float64(d.replies * d.tokens)
	fmt.Fprintf(&b, "On disk, compaction takes the log from %.0f to %.1f bytes per token, against %.1f bytes of text; "+
		"%.1f of those bytes per token are the final `output` events, whose JSON repeats the reply's fullText.",
		float64(d.before.bytes)/tokens, float64(d.after.bytes)/tokens, float64(d.textBytes)/tokens, float64(d.finalData)/tokens)
	return b.String()
}

// compactionReading says how the CPU of the log's compaction grows between
// the two longest lengths.
func (r *results) compactionReading() string {
	ls := r.cfg.lengths
	if len(ls) < 2 {
		return ""
	}
	a, z := ls[len(ls)-2], ls[len(ls)-1]
	ca, cz := median(r.byLen[a][wispDelta], compactOf), median(r.byLen[z][wispDelta], compactOf)
	grow, longer := cz/ca, float64(z)/float64(a)
	how := "in step with the reply"
	if grow > 1.5*longer {
		how = "faster than the reply: it is superlinear in the length of a stretch of deltas"
	}
	return fmt.Sprintf("The log's compaction after the run, not counted in the target, is %s at %s words and %s at %s (×%.1f for ×%.0f words), %s; "+
		"counted in, the delta stream's CPU is %.2f× the relay floor's at %s words. ",
		timeText(ca), thousands(a), timeText(cz), thousands(z), grow, longer, how,
		median(r.byLen[z][wispDelta], cpuAndCompactOf)/median(r.byLen[z][relay], cpuOf), thousands(z))
}

// worstDeltaBytes is the largest relative difference between Wisp's delta
// stream and the bare-delta floor in bytes, over the lengths.
func (r *results) worstDeltaBytes() float64 {
	worst := 0.0
	for _, n := range r.cfg.lengths {
		row := r.byLen[n]
		worst = max(worst, median(row[wispDelta], bytesOf)/median(row[bareDelta], bytesOf)-1)
	}
	return worst
}

func thousands(n int) string { return benchkit.Thousands(float64(n)) }
