// Package doctext reads the text of documents users attach: a PDF's text per page,
// and a text file's text. A PDF is untrusted input (a compression bomb, ten
// thousand pages, reference loops), so it is never parsed in Wisp's own process:
// PDF starts the same executable again as a child (RunChildIfAsked, first thing in
// main), with a minimal environment, the file as its standard input, and hard
// bounds on wall time, memory, pages and text; the child writes the pages as a
// framed stream on its standard output, which the parent reads within bounds too.
// It imports nothing of Wisp but internal/ (docs/attachments.md, "Documents").
package doctext

import (
	"errors"
	"fmt"
	"time"
)

// Bounds limit the reading of one PDF. A zero field takes its default.
type Bounds struct {
	Time     time.Duration // wall time of the child, start to end (30 s)
	Memory   int64         // bytes the child may allocate beyond its start (512 MiB)
	Pages    int           // pages read; the rest are reported as truncated (2,000)
	Text     int64         // bytes of text of all pages together (16 MiB)
	PageText int64         // bytes of text of one page (1 MiB, at most Text)
}

// Defaults of Bounds.
const (
	DefaultTime     = 30 * time.Second
	DefaultMemory   = 512 << 20
	DefaultPages    = 2000
	DefaultText     = 16 << 20
	DefaultPageText = 1 << 20
)

// withDefaults fills the zero fields.
func (b Bounds) withDefaults() Bounds {
	if b.Time <= 0 {
		b.Time = DefaultTime
	}
	if b.Memory <= 0 {
		b.Memory = DefaultMemory
	}
	if b.Pages <= 0 {
		b.Pages = DefaultPages
	}
	if b.Text <= 0 {
		b.Text = DefaultText
	}
	if b.PageText <= 0 {
		b.PageText = DefaultPageText
	}
	b.PageText = min(b.PageText, b.Text)
	return b
}

// Page is one page's text; N counts from 1.
type Page struct {
	N    int
	Text string
}

// The kinds of errors PDF returns (errors.Is): each *Error says which bound or
// fault in words a user can read.
var (
	ErrUnreadable = errors.New("the PDF could not be read")
	ErrTime       = errors.New("the PDF took too long to read")
	ErrMemory     = errors.New("the PDF needed too much memory")
)

// Error is a PDF that could not be read: Msg is the sentence to show, Kind one of
// the Err values above.
type Error struct {
	Kind error
	Msg  string
}

func (e *Error) Error() string        { return e.Msg }
func (e *Error) Is(target error) bool { return target == e.Kind }

func unreadable(format string, args ...any) error {
	return &Error{Kind: ErrUnreadable, Msg: "the PDF could not be read: " + fmt.Sprintf(format, args...)}
}

func tooSlow(b Bounds) error {
	return &Error{Kind: ErrTime, Msg: fmt.Sprintf("the PDF took longer than %v to read", b.Time)}
}

func tooBig(b Bounds) error {
	return &Error{Kind: ErrMemory, Msg: fmt.Sprintf("the PDF needed more than %s", mib(b.Memory))}
}

func mib(n int64) string {
	if n%(1<<20) == 0 {
		return fmt.Sprintf("%d MiB", n>>20)
	}
	return fmt.Sprintf("%d bytes", n)
}
