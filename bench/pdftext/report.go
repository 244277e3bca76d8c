package main

import (
	"fmt"
	"strings"

	"github.com/wispapp/wisp/bench/benchkit"
)

// Targets: Wisp pays for a process start of its own binary and a parser written
// in Go with bounds on every page; within these of poppler's C++ it is fine for
// attachments read once.
const (
	timeTarget = 3.0
	rssTarget  = 3.0
)

const sectionIntro = `## PDF text

A generated 200-page PDF (` + "`internal/pdfgen`" + `: one Helvetica text stream per page)
read by doctext as Wisp reads an attachment: a child process of Wisp's own binary
(` + "`build/bin/wisp-serve`" + `) with the default bounds (30 s, 512 MiB, 2,000 pages,
16 MiB of text), its framed output read and checked by the parent; against
` + "`pdftotext`" + ` (poppler-utils: a small executable on the shared libpoppler, so its
size below is not its code's) on the same file, the floor. Time runs from the start
of the process to its end with the text in hand (doctext: the parent's call;
pdftotext: its run and the text file read back); peak memory is each process's
max RSS from its rusage (doctext's child; pdftotext). The two alternate, after
unrecorded warm-up readings; every output is checked (200 pages, KEYWORD-137 on
page 137 alone). Driver: ` + "`bench/pdftext`" + `.

`

type results struct {
	env         benchkit.Env
	opts        options
	size        int64
	wisp, floor []sample
}

func (r results) markdown() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s · a %d-page PDF of %.1f KiB · %d readings of each after %d warm-up, alternating.\n\n",
		r.env.Line(), r.opts.pages, float64(r.size)/1024, r.opts.runs, r.opts.warmup)
	b.WriteString("| Figure | doctext median | doctext p90 | pdftotext median | pdftotext p90 | doctext / pdftotext | Target | Result |\n")
	b.WriteString("|---|--:|--:|--:|--:|--:|:-:|---|\n")
	times := func(ss []sample) []float64 {
		out := make([]float64, len(ss))
		for i, s := range ss {
			out[i] = benchkit.Ms(s.took)
		}
		return out
	}
	rss := func(ss []sample) []float64 {
		out := make([]float64, len(ss))
		for i, s := range ss {
			out[i] = float64(s.rss) / (1 << 20)
		}
		return out
	}
	row := func(name string, w, f []float64, unit func(float64) string, target float64) {
		wm, fm := benchkit.Median(w), benchkit.Median(f)
		ratio := wm / fm
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | **%.2f×** | ≤ %g× | %s |\n", name,
			unit(wm), unit(benchkit.Percentile(w, 90)), unit(fm), unit(benchkit.Percentile(f, 90)),
			ratio, target, benchkit.Verdict(ratio <= target))
	}
	row(fmt.Sprintf("Time to text, %d pages", r.opts.pages), times(r.wisp), times(r.floor), benchkit.Msec, timeTarget)
	row("Peak memory (max RSS)", rss(r.wisp), rss(r.floor), func(v float64) string { return fmt.Sprintf("%.1f MiB", v) }, rssTarget)
	fmt.Fprintf(&b, "\nPer page: doctext %.2f ms, pdftotext %.2f ms (medians over %d pages).",
		benchkit.Median(times(r.wisp))/float64(r.opts.pages), benchkit.Median(times(r.floor))/float64(r.opts.pages), r.opts.pages)
	return b.String()
}
