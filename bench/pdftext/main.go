// Command pdftext is Wisp's benchmark of reading a PDF's text: a generated
// 200-page PDF (internal/pdfgen) read by doctext (a child process of Wisp's own
// binary, started, bounded and read as Wisp does for an attachment) against
// pdftotext from poppler-utils on the same file, the floor. Time is from the
// start of the process to its end with the text in hand; peak memory is the
// process's max RSS from its rusage (doctext's child; pdftotext). The two take
// turns, after unrecorded warm-up rounds, and each output is checked (page 137
// holds KEYWORD-137).
//
// The result is printed on stdout and, with --out, written between the
// "<!-- bench:pdftext:begin -->" and "<!-- bench:pdftext:end -->" markers of
// BENCHMARKS.md; the rest of that file is kept.
//
// Usage (see `make bench`; pdftotext comes with poppler-utils):
//
//	go run ./bench/pdftext --wisp build/bin/wisp-serve --out BENCHMARKS.md
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/wispapp/wisp/bench/benchkit"
	"github.com/wispapp/wisp/doctext"
	"github.com/wispapp/wisp/internal/pdfgen"
)

type options struct {
	wisp, pdftotext, out, profile string
	pages, runs, warmup           int
}

// sample is one reading: how long it took and the reader's peak RSS.
type sample struct {
	took time.Duration
	rss  int64
}

func main() {
	doctext.RunChildIfAsked() // with no --wisp, this driver is the reader
	var o options
	flag.StringVar(&o.wisp, "wisp", "build/bin/wisp-serve", "the Wisp binary doctext starts as its reader (empty: this driver)")
	flag.StringVar(&o.pdftotext, "pdftotext", "pdftotext", "poppler's pdftotext, the floor")
	flag.IntVar(&o.pages, "pages", 200, "pages of the generated PDF")
	flag.IntVar(&o.runs, "runs", 15, "recorded readings of each")
	flag.IntVar(&o.warmup, "warmup", 2, "unrecorded readings of each before them")
	flag.StringVar(&o.out, "out", "", "Markdown file whose pdftext section is replaced (e.g. BENCHMARKS.md); empty: stdout only")
	flag.StringVar(&o.profile, "cpuprofile", "", "write a CPU profile of the driver to this file")
	flag.Parse()
	if o.pages < 137 || o.runs < 1 || o.warmup < 0 || flag.NArg() > 0 {
		fmt.Fprintln(os.Stderr, "pdftext: --pages must be at least 137, --runs at least 1")
		os.Exit(2)
	}
	benchkit.Main("pdftext", o.profile, func(ctx context.Context, tmp string) error { return run(ctx, o, tmp) })
}

func run(ctx context.Context, o options, tmp string) error {
	exe := o.wisp
	if exe == "" {
		self, err := os.Executable()
		if err != nil {
			return err
		}
		exe = self
	}
	floor, err := exec.LookPath(o.pdftotext)
	if err != nil {
		return fmt.Errorf("pdftotext: %w (apt-get install poppler-utils)", err)
	}
	pdf := filepath.Join(tmp, "doc.pdf")
	file := pdfgen.Pages(o.pages)
	if err := os.WriteFile(pdf, file, 0o600); err != nil {
		return err
	}
	readers := []func() (sample, error){
		func() (sample, error) { return viaDoctext(ctx, exe, pdf, o.pages) },
		func() (sample, error) { return viaPdftotext(ctx, floor, pdf, filepath.Join(tmp, "doc.txt"), o.pages) },
	}
	got := make([][]sample, len(readers))
	fmt.Fprintf(os.Stderr, "pdftext: %d pages, %d readings each after %d warm-up...\n", o.pages, o.runs, o.warmup)
	for round := range o.warmup + o.runs {
		for k := range readers {
			i := (k + round) % len(readers) // each goes first in turn
			s, err := readers[i]()
			if err != nil {
				return err
			}
			if round >= o.warmup {
				got[i] = append(got[i], s)
			}
		}
	}
	res := results{
		env:   benchkit.Environment(benchkit.StatBinary("wisp", exe), benchkit.StatBinary("pdftotext", floor)),
		opts:  o,
		size:  int64(len(file)),
		wisp:  got[0],
		floor: got[1],
	}
	return benchkit.Publish(o.out, "pdftext", sectionIntro, res.markdown())
}

// viaDoctext reads the PDF as Wisp reads an attachment: a child process of exe,
// with the default bounds.
func viaDoctext(ctx context.Context, exe, pdf string, pages int) (sample, error) {
	start := time.Now()
	res, err := doctext.ReadWith(ctx, exe, pdf, doctext.Bounds{})
	took := time.Since(start)
	if err != nil {
		return sample{}, fmt.Errorf("doctext: %w", err)
	}
	texts := make([]string, len(res.Pages))
	for i, p := range res.Pages {
		texts[i] = p.Text
	}
	if err := check("doctext", texts, pages); err != nil {
		return sample{}, err
	}
	return sample{took: took, rss: res.MaxRSS}, nil
}

// viaPdftotext runs pdftotext on the PDF into out and reads the text back.
func viaPdftotext(ctx context.Context, bin, pdf, out string, pages int) (sample, error) {
	cmd := exec.CommandContext(ctx, bin, "-q", pdf, out)
	start := time.Now()
	err := cmd.Run()
	took := time.Since(start)
	if err != nil {
		return sample{}, fmt.Errorf("pdftotext: %w", err)
	}
	text, err := os.ReadFile(out)
	if err != nil {
		return sample{}, err
	}
	// pdftotext ends each page with a form feed.
	texts := strings.Split(strings.TrimSuffix(string(text), "\f"), "\f")
	if err := check("pdftotext", texts, pages); err != nil {
		return sample{}, err
	}
	var rss int64
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		rss = ru.Maxrss << 10
	}
	return sample{took: took, rss: rss}, nil
}

// check: every page was read, and page 137 is the one with KEYWORD-137.
func check(who string, pages []string, want int) error {
	if len(pages) != want {
		return fmt.Errorf("%s read %d pages, want %d", who, len(pages), want)
	}
	if !strings.Contains(pages[136], "KEYWORD-137 ") || strings.Contains(pages[135], "KEYWORD-137 ") {
		return errors.New(who + ": KEYWORD-137 is not on page 137 alone")
	}
	return nil
}
