package doctext

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/wispapp/wisp/internal/pdfgen"
)

func TestMain(m *testing.M) {
	RunChildIfAsked()
	if addr := os.Getenv(envProbe); addr != "" {
		probeConfined(addr)
	}
	goleak.VerifyTestMain(m)
}

// write puts b in a temporary file and returns its path.
func write(t testing.TB, b []byte) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "doc.pdf")
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestPDFReadsEveryPageWithItsNumber(t *testing.T) {
	pages, truncated, err := PDF(context.Background(), write(t, pdfgen.Pages(7)), Bounds{})
	if err != nil || truncated {
		t.Fatalf("PDF: %v truncated %v", err, truncated)
	}
	if len(pages) != 7 {
		t.Fatalf("%d pages, want 7", len(pages))
	}
	for i, p := range pages {
		n := i + 1
		want := strings.Join(pdfgen.PageText(n), "\n")
		if p.N != n || p.Text != want {
			t.Errorf("page %d = %d %q, want %q", i, p.N, p.Text, want)
		}
	}
}

// The child runs under its memory bound: a small one still reads a long file (a
// bomb under it fails: TestHostilePDFs).
func TestPDFReadsUnderASmallMemoryBound(t *testing.T) {
	pages, _, err := PDF(context.Background(), write(t, pdfgen.Pages(200)), Bounds{Memory: 48 << 20})
	if err != nil || len(pages) != 200 || !strings.Contains(pages[136].Text, "KEYWORD-137 ") {
		t.Fatalf("%d pages, %v", len(pages), err)
	}
}

func TestPDFKeepsItsBounds(t *testing.T) {
	path := write(t, pdfgen.Pages(30))
	pages, truncated, err := PDF(context.Background(), path, Bounds{Pages: 10})
	if err != nil || !truncated || len(pages) != 10 || pages[9].N != 10 {
		t.Fatalf("10 pages of 30: %d pages, truncated %v, %v", len(pages), truncated, err)
	}
	pages, truncated, err = PDF(context.Background(), path, Bounds{Text: 500, PageText: 100})
	if err != nil || !truncated {
		t.Fatalf("500 bytes of text: truncated %v, %v", truncated, err)
	}
	var total int
	for _, p := range pages {
		if len(p.Text) > 100 {
			t.Errorf("page %d holds %d bytes, more than 100", p.N, len(p.Text))
		}
		total += len(p.Text)
	}
	if total > 500 || total < 300 {
		t.Errorf("%d bytes of text, want at most 500 and most of it", total)
	}
}

// TestHostilePDFs: every hostile file ends within its bounds, with a clear error
// or its pages cut, and this process keeps its health (the goroutine check of
// TestMain, and the next case runs).
func TestHostilePDFs(t *testing.T) {
	quick := Bounds{Time: 3 * time.Second}
	bomb := pdfgen.Bomb(512 << 20)
	cases := []struct {
		name   string
		file   []byte
		bounds Bounds
		want   error  // nil: pages come back
		msg    string // in the error
		pages  int    // with want nil: the pages read
		within time.Duration
	}{
		{"bomb under a small memory bound", bomb, Bounds{Memory: 64 << 20}, ErrMemory, "the PDF needed more than 64 MiB", 0, 25 * time.Second},
		{"bomb under the defaults", bomb, quick, ErrTime, "", 0, 25 * time.Second},
		{"ten thousand pages", pdfgen.Pages(10_000), Bounds{}, nil, "KEYWORD-1 ", DefaultPages, 60 * time.Second},
		{"broken xref", pdfgen.BrokenXref(), Bounds{}, ErrUnreadable, "the PDF could not be read: ", 0, 10 * time.Second},
		{"page tree loops", pdfgen.ParentLoop(), quick, nil, "a page inside a loop", 1, 10 * time.Second},
		{"xref /Prev loop", pdfgen.PrevLoop(), Bounds{Time: 2 * time.Second}, ErrTime, "the PDF took longer than 2s to read", 0, 10 * time.Second},
		{"garbage after the header", pdfgen.Garbage(1 << 20), Bounds{}, ErrUnreadable, "the PDF could not be read: ", 0, 10 * time.Second},
		{"not a PDF", []byte("hello"), Bounds{}, ErrUnreadable, "the PDF could not be read: not a PDF file", 0, 10 * time.Second},
		{"empty", nil, Bounds{}, ErrUnreadable, "the PDF could not be read: ", 0, 10 * time.Second},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			path := write(t, c.file)
			start := time.Now()
			pages, truncated, err := PDF(context.Background(), path, c.bounds)
			took := time.Since(start)
			if took > c.within {
				t.Errorf("took %v, more than %v", took, c.within)
			}
			switch {
			case c.want == ErrTime:
				// The time or the memory bound, whichever the machine meets first.
				if !errors.Is(err, ErrTime) && !errors.Is(err, ErrMemory) {
					t.Errorf("err = %v, want ErrTime or ErrMemory", err)
				}
				if errors.Is(err, ErrTime) && !strings.HasPrefix(err.Error(), c.msg) {
					t.Errorf("err = %v, want it to start %q", err, c.msg)
				}
			case c.want == nil:
				if err != nil || len(pages) != c.pages || truncated != (c.pages == DefaultPages) ||
					!strings.Contains(pages[0].Text, c.msg) {
					t.Errorf("%d pages, truncated %v, %v; want %d pages with %q", len(pages), truncated, err, c.pages, c.msg)
				}
			default:
				if !errors.Is(err, c.want) || !strings.HasPrefix(fmt.Sprint(err), c.msg) {
					t.Errorf("err = %v, want %v starting %q", err, c.want, c.msg)
				}
			}
		})
	}
	// The parent held none of it: its heap is what the test itself made.
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	if m.HeapAlloc > 64<<20 {
		t.Errorf("the test process holds %d MiB of heap after the hostile files", m.HeapAlloc>>20)
	}
}

func TestPDFStopsWithItsContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, _, err := PDF(ctx, write(t, pdfgen.Pages(1)), Bounds{}); !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	if _, _, err := PDF(context.Background(), filepath.Join(t.TempDir(), "missing.pdf"), Bounds{}); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("missing file: %v", err)
	}
}

func TestText(t *testing.T) {
	cases := []struct {
		name, in  string
		max       int64
		want      string
		truncated bool
	}{
		{"plain", "hello\nworld\n", 100, "hello\nworld\n", false},
		{"bom and crlf", "\xef\xbb\xbfa\r\nb\rc", 100, "a\nb\nc", false},
		{"invalid utf-8", "a\xffb", 100, "a\uFFFDb", false},
		{"nul", "a\x00b", 100, "ab", false},
		{"cut", "abcdef", 4, "abcd", true},
		{"cut inside a rune", "abé", 3, "ab", true},
		{"empty", "", 10, "", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, truncated, err := Text(strings.NewReader(c.in), c.max)
			if err != nil || got != c.want || truncated != c.truncated {
				t.Errorf("Text(%q, %d) = %q, %v, %v; want %q, %v", c.in, c.max, got, truncated, err, c.want, c.truncated)
			}
		})
	}
}

func TestDecode(t *testing.T) {
	b := Bounds{}.withDefaults()
	var out bytes.Buffer
	e := newEncoder(&out)
	e.page(1, "one")
	e.page(3, "three")
	e.done(true)
	got, err := decode(&out, b)
	if err != nil || !got.done || !got.truncated || len(got.pages) != 2 || got.pages[1] != (Page{3, "three"}) {
		t.Fatalf("decode = %+v, %v", got, err)
	}
	bad := map[string]func(e *encoder){
		"pages out of order": func(e *encoder) { e.page(2, "a"); e.page(1, "b"); e.done(false) },
		"too many pages":     func(e *encoder) { e.page(b.Pages+1, "a"); e.done(false) },
		"cut short":          func(e *encoder) { e.page(1, "a"); e.w.Flush() },
		"unknown frame":      func(e *encoder) { e.frame('x'); e.done(false) },
		"page too big":       func(e *encoder) { e.page(1, strings.Repeat("a", int(b.PageText)+1)); e.done(false) },
	}
	for name, write := range bad {
		var out bytes.Buffer
		write(newEncoder(&out))
		if _, err := decode(&out, b); err == nil {
			t.Errorf("%s: decoded", name)
		}
	}
	if _, err := decode(strings.NewReader("PASS\nok\n"), b); !errors.Is(err, errNoChild) {
		t.Errorf("not the child: %v", err)
	}
}

// FuzzDecode: no output of the child makes the parent panic or break a bound.
func FuzzDecode(f *testing.F) {
	var out bytes.Buffer
	e := newEncoder(&out)
	e.page(1, "one")
	e.fail("bad")
	f.Add(out.Bytes())
	f.Add([]byte(magic + "d\x00\x00\x00\x01\x01"))
	b := Bounds{Pages: 5, Text: 64, PageText: 16}.withDefaults()
	f.Fuzz(func(t *testing.T, data []byte) {
		got, _ := decode(bytes.NewReader(data), b)
		var total int
		for i, p := range got.pages {
			if p.N < 1 || p.N > b.Pages || i > 0 && p.N <= got.pages[i-1].N {
				t.Fatalf("page %d out of bounds or order", p.N)
			}
			total += len(p.Text)
		}
		if int64(total) > b.Text {
			t.Fatalf("%d bytes of text", total)
		}
	})
}
