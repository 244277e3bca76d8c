package main

import (
	"fmt"
	"slices"
	"strings"

	"github.com/wispapp/wisp/bench/benchkit"
)

const intro = `## Web: FETCH_URL on a 1 MiB page against a bare fetch

FETCH_URL's work after consent (docs/web.md), in the driver's process: app/web's
` + "`Service.Fetch`" + ` of a 1 MiB article page (40 menu links, ~120 sections of headings,
paragraphs with links and emphasis, lists, tables and code, a sidebar, a footer,
scripts), from the request to the bounded Markdown the model gets: the checked
dialer, the bounded read, the charset, the HTML parse (as the body arrives),
readability (go-readability v2) and html-to-markdown v2. The floor is a bare Go
http.Client fetching the same bytes (GET, io.ReadAll, a new connection each time as
FETCH_URL's). On loopback, two more cases say where the time goes: the same bytes
served as text/plain through FETCH_URL's client (no HTML work), and the bytes parsed
by golang.org/x/net/html alone (no fetch), the step every HTML reader needs first.
Loopback sends the megabyte in a millisecond or two, which no real site does, so the
second table fetches the same page from the same server sent as a site sends it: the
headers after a round trip, then the body at a fixed rate in chunks (the floor and
FETCH_URL, their rounds interleaved with the loopback ones). Peak heap is the heap's
objects (runtime/metrics) sampled every 100 µs during a fetch, above what it was
after a GC just before. Target (issue 33): ≤ 2× the floor's time, in both tables.
Driver: ` + "`bench/webfetch`" + ` (` + "`make bench`" + `).
`

func report(cfg config, pageBytes, mdChars int, res results) string {
	var b strings.Builder
	e := benchkit.Environment(benchkit.Executable("bench/webfetch"))
	fmt.Fprintf(&b, "Measured %s · commit %s · in-process: the driver binary bench/webfetch, %s, which links app/web · %s · Linux %s · %s (%d CPUs) · a %d KiB page → %d characters of Markdown for the model (the 60,000 bound cut it) · %d recorded fetches of each after %d, alternating\n\n",
		e.Date, e.Commit, e.Binaries[0].SizeText(), e.Go, e.Kernel, e.CPU, e.CPUs, pageBytes>>10, mdChars, cfg.rounds, cfg.warmup)
	b.WriteString("| case | median | p90 | ratio to the floor (median) | peak heap (median) | heap ratio |\n|---|--:|--:|--:|--:|--:|\n")
	ft, fh := times(res.floor), heaps(res.floor)
	row := func(name string, s []sample) float64 {
		t, h := times(s), heaps(s)
		ratio := benchkit.Median(t) / benchkit.Median(ft)
		fmt.Fprintf(&b, "| %s | %s | %s | %.2f× | %s | %.1f× |\n", name, benchkit.Msec(benchkit.Median(t)),
			benchkit.Msec(benchkit.Percentile(t, 90)), ratio, mibText(benchkit.Median(h)), benchkit.Median(h)/benchkit.Median(fh))
		return ratio
	}
	row("floor: bare http.Client GET + io.ReadAll", res.floor)
	row("FETCH_URL's client, same bytes as text/plain", res.text)
	row("x/net/html.Parse of the same bytes alone (no fetch)", res.parse)
	ratio := row("**FETCH_URL: HTML → readable Markdown**", res.wisp)
	fmt.Fprintf(&b, "\nTarget on loopback: time to Markdown ≤ 2× the bare fetch (median): %s (%.1f×).\n", benchkit.Verdict(ratio <= 2), ratio)

	sh := cfg.shape
	fmt.Fprintf(&b, "\n**Shaped like a real site** (same server, same page, same run, the rounds interleaved with those above): the server sends the headers %s after the request, as one round trip would, then the body at %g Mbit/s in %d KiB chunks (each written when its last byte is due: the whole body takes %s on the wire).\n\n",
		benchkit.Msec(benchkit.Ms(sh.rtt)), sh.mbit, sh.chunk>>10, benchkit.Msec(benchkit.Ms(sh.at(pageBytes))))
	b.WriteString("| case (shaped) | median | p90 | ratio to the shaped floor (median) | peak heap (median) | heap ratio |\n|---|--:|--:|--:|--:|--:|\n")
	ft, fh = times(res.shapedFloor), heaps(res.shapedFloor)
	row("floor: bare http.Client GET + io.ReadAll", res.shapedFloor)
	shaped := row("**FETCH_URL: HTML → readable Markdown**", res.shapedWisp)
	fmt.Fprintf(&b, "\nTarget shaped like a real site: time to Markdown ≤ 2× the bare fetch (median): %s (%.2f×).\n", benchkit.Verdict(shaped <= 2), shaped)
	return b.String()
}

func times(s []sample) []float64 {
	out := make([]float64, len(s))
	for i, x := range s {
		out[i] = benchkit.Ms(x.d)
	}
	return out
}

func heaps(s []sample) []float64 {
	out := make([]float64, len(s))
	for i, x := range s {
		out[i] = float64(x.heap)
	}
	slices.Sort(out)
	return out
}

func mibText(bytes float64) string { return fmt.Sprintf("%.1f MiB", bytes/(1<<20)) }
