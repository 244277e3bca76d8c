package main

import (
	"fmt"
	"strings"

	"github.com/wispapp/wisp/bench/benchkit"
)

const (
	targetP99Ms    = 5.0 // p99 POST → frame at a client
	targetP99Ratio = 3.0 // Wisp's p99 / the floor's
)

// sectionIntro is written above the emote section of BENCHMARKS.md
// (<!-- bench:emote:begin --> … <!-- bench:emote:end -->) when it is new.
const sectionIntro = "## Emotes: broadcast latency\n\n" +
	"A real Wisp App started inside the driver's process, with 10 WebSocket clients on `/ws`, each read " +
	"continuously by its own goroutine (other frames, like `status`, are read and skipped). One sample is " +
	"`POST /api/emote {\"emoteId\":\"wave\"}` over loopback, timed from just before the request to the moment " +
	"each client has read the frame `{\"type\":\"emote\",\"emoteId\":\"wave\",\"glbPath\":\"/emotes/wave.glb\"," +
	"\"duration\":2.5,\"loop\":false}`, and to the moment the last of the 10 has. Its floor is a bare net/http " +
	"server in the same process with melody (the library Wisp's hub is built on) on `/ws` and 10 clients of its " +
	"own, which on `POST /emote` reads the body, hands the same frame, encoded once, to melody's `Broadcast` and " +
	"answers `{\"ok\":true}`: the ratio is what Wisp's request handling (guard, JSON decoding, catalog lookup, " +
	"encoding the frame) and its hub add. For context, the floor's fan-out is also triggered by calling " +
	"`Broadcast` directly, without HTTP. The three take turns, one sample each in a rotating order. Target: " +
	"p99 at most 5 ms and at most 3× the floor's p99. Every frame is checked: each client gets exactly one per " +
	"sample, equal to the one above. Driver: `bench/emote`.\n\n"

// results are every sample of one run of the driver.
type results struct {
	env                 benchkit.Env
	cfg                 config
	wisp, floor, direct *side
}

func (r *results) sides() []*side { return []*side{r.wisp, r.floor, r.direct} }

// markdown renders the section that goes between the markers (and on stdout).
func (r *results) markdown() string {
	var b strings.Builder
	c := r.cfg
	fmt.Fprintf(&b, "%s · %d clients per server · %d broadcasts each of Wisp, the floor and the floor without HTTP, taking turns, after %d warm-up, %s apart.\n\n",
		r.env.Line(), c.clients, c.runs, c.warmup, benchkit.Msec(ms(c.pause)))
	r.table(&b)
	r.context(&b)
	fmt.Fprintf(&b, "\nChecked: all %s Wisp frames and %s floor frames arrived exactly once per sample and equal the expected frame.\n",
		benchkit.Thousands(float64(len(r.wisp.each))), benchkit.Thousands(float64(len(r.floor.each)+len(r.direct.each))))
	fmt.Fprintf(&b, "\n%s\n", r.interpretation())
	return strings.TrimRight(b.String(), "\n")
}

func (r *results) table(b *strings.Builder) {
	n := r.cfg.clients
	b.WriteString("| Figure | wisp p50 | wisp p99 | wisp max | floor p50 | floor p99 | wisp / floor (p50) | wisp / floor (p99) | Target | Result |\n")
	b.WriteString("|---|--:|--:|--:|--:|--:|--:|--:|:-:|---|\n")
	row := func(name string, w, f []float64) {
		wp50, wp99, fp50, fp99 := benchkit.Percentile(w, 50), benchkit.Percentile(w, 99), benchkit.Percentile(f, 50), benchkit.Percentile(f, 99)
		fmt.Fprintf(b, "| %s | %s | %s | %s | %s | %s | %.2f× | **%.2f×** | p99 ≤ %.0f ms, ≤ %.0f× floor | %s |\n",
			name, benchkit.Msec(wp50), benchkit.Msec(wp99), benchkit.Msec(benchkit.Percentile(w, 100)), benchkit.Msec(fp50), benchkit.Msec(fp99),
			wp50/fp50, wp99/fp99, targetP99Ms, targetP99Ratio, benchkit.Verdict(wp99 <= targetP99Ms && wp99/fp99 <= targetP99Ratio))
	}
	row(fmt.Sprintf("`POST /api/emote` → `emote` frame at a client (each of %d; %s arrivals)", n, benchkit.Thousands(float64(len(r.wisp.each)))),
		r.wisp.each, r.floor.each)
	row(fmt.Sprintf("`POST /api/emote` → the last of the %d clients has it (%s broadcasts)", n, benchkit.Thousands(float64(len(r.wisp.last)))),
		r.wisp.last, r.floor.last)
}

// context writes the floor without HTTP and the POSTs' own answer times.
func (r *results) context(b *strings.Builder) {
	d := r.direct
	fmt.Fprintf(b, "\nContext: the floor's fan-out alone (melody `Broadcast` called in-process, no HTTP) reaches a client in %s at p50 (%s at p99) and the last of them in %s (%s). "+
		"The POST is answered in %s at p50 by Wisp and %s by the floor.\n",
		benchkit.Msec(benchkit.Percentile(d.each, 50)), benchkit.Msec(benchkit.Percentile(d.each, 99)),
		benchkit.Msec(benchkit.Percentile(d.last, 50)), benchkit.Msec(benchkit.Percentile(d.last, 99)),
		benchkit.Msec(benchkit.Percentile(r.wisp.answer, 50)), benchkit.Msec(benchkit.Percentile(r.floor.answer, 50)))
}

// interpretation is the reading of the figures.
func (r *results) interpretation() string {
	w, f, d := r.wisp, r.floor, r.direct
	wp50, wp99 := benchkit.Percentile(w.each, 50), benchkit.Percentile(w.each, 99)
	fp50, fp99 := benchkit.Percentile(f.each, 50), benchkit.Percentile(f.each, 99)
	met := "the target is met"
	if !(wp99 <= targetP99Ms && wp99/fp99 <= targetP99Ratio) {
		met = "the target is **missed**"
	}
	return fmt.Sprintf("Reading: a Wisp client has the emote %s the bare server's at p50 and %s it at p99, so %s; "+
		"of the floor's own %s, the fan-out to %d clients takes %s and the HTTP request the rest.",
		versus(wp50-fp50), versus(wp99-fp99), met, benchkit.Msec(fp50), r.cfg.clients, benchkit.Msec(benchkit.Percentile(d.each, 50)))
}

// versus says how a latency compares with another, given their difference in ms.
func versus(diff float64) string {
	switch {
	case diff >= 0.005:
		return benchkit.Msec(diff) + " after"
	case diff <= -0.005:
		return benchkit.Msec(-diff) + " before"
	}
	return "as fast as (within 0.01 ms)"
}
