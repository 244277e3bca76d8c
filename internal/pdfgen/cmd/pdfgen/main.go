// Command pdfgen writes a generated PDF (internal/pdfgen) to a file: a document of
// -pages pages whose page n reads "Page n: the quick brown fox … KEYWORD-n", or one
// of the hostile kinds the tests use.
//
//	go run ./internal/pdfgen/cmd/pdfgen -pages 200 -out x.pdf
//	go run ./internal/pdfgen/cmd/pdfgen -kind bomb -size 4294967296 -out bomb.pdf
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/wispapp/wisp/internal/pdfgen"
)

func main() {
	pages := flag.Int("pages", 200, "pages of the document (kind pages)")
	kind := flag.String("kind", "pages", "pages, bomb, broken-xref, parent-loop, prev-loop or garbage")
	size := flag.Int64("size", 1<<30, "bytes the bomb inflates to, or of garbage")
	out := flag.String("out", "", "the file to write (required)")
	flag.Parse()
	if *out == "" || *pages < 1 {
		fmt.Fprintln(os.Stderr, "pdfgen: -out is required and -pages must be at least 1")
		os.Exit(2)
	}
	var b []byte
	switch *kind {
	case "pages":
		b = pdfgen.Pages(*pages)
	case "bomb":
		b = pdfgen.Bomb(*size)
	case "broken-xref":
		b = pdfgen.BrokenXref()
	case "parent-loop":
		b = pdfgen.ParentLoop()
	case "prev-loop":
		b = pdfgen.PrevLoop()
	case "garbage":
		b = pdfgen.Garbage(int(min(*size, 1<<30)))
	default:
		fmt.Fprintf(os.Stderr, "pdfgen: unknown kind %q\n", *kind)
		os.Exit(2)
	}
	if err := os.WriteFile(*out, b, 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "pdfgen:", err)
		os.Exit(1)
	}
}
