// Package pdfgen writes PDF files by hand for tests and benchmarks: valid files
// with known text on every page (Helvetica, one content stream per page, a correct
// cross-reference table), and hostile ones (a compression bomb, ten thousand pages,
// a broken cross-reference table, reference loops, garbage after the header).
// Fixtures are generated, never downloaded. It imports nothing of Wisp.
package pdfgen

import (
	"bytes"
	"compress/zlib"
	"fmt"
	"hash/adler32"
	"strings"
)

// PageText is the text Pages writes on page n (from 1): a sentence with the page's
// number and a keyword found on that page only, e.g. "KEYWORD-137".
func PageText(n int) []string {
	return []string{
		fmt.Sprintf("Page %d: the quick brown fox jumps over the lazy dog.", n),
		fmt.Sprintf("This page holds the marker KEYWORD-%d and nothing else of note.", n),
		"Wisp reads the text of every page and cites its number.",
	}
}

// Pages is a valid PDF of n pages, each with the lines PageText(n).
func Pages(n int) []byte {
	pages := make([][]string, n)
	for i := range pages {
		pages[i] = PageText(i + 1)
	}
	return Document(pages)
}

// Document is a valid PDF with one page per element of pages, each line written
// in Helvetica at its own height. Lines are Latin-1 text ((, ) and \ escaped).
func Document(pages [][]string) []byte {
	var w writer
	w.header()
	n := len(pages)
	// Objects: 1 catalog, 2 page tree, 3 font, then per page: page, contents.
	kids := make([]string, n)
	for i := range pages {
		kids[i] = fmt.Sprintf("%d 0 R", 4+2*i)
	}
	w.object(1, "<< /Type /Catalog /Pages 2 0 R >>")
	w.object(2, fmt.Sprintf("<< /Type /Pages /Kids [%s] /Count %d >>", strings.Join(kids, " "), n))
	w.object(3, "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>")
	for i, lines := range pages {
		page, contents := 4+2*i, 5+2*i
		w.object(page, fmt.Sprintf("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] "+
			"/Resources << /Font << /F1 3 0 R >> >> /Contents %d 0 R >>", contents))
		w.stream(contents, "", []byte(content(lines)))
	}
	return w.finish(1)
}

// content is a page's content stream: each line shown on its own line.
func content(lines []string) string {
	var b strings.Builder
	b.WriteString("BT /F1 12 Tf 72 720 Td 14 TL\n")
	for i, l := range lines {
		if i > 0 {
			b.WriteString("T*\n")
		}
		b.WriteString("(" + escape(l) + ") Tj\n")
	}
	b.WriteString("ET\n")
	return b.String()
}

func escape(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `(`, `\(`, `)`, `\)`)
	return r.Replace(s)
}

// writer builds a PDF file, remembering where each object starts for the
// cross-reference table.
type writer struct {
	buf     bytes.Buffer
	offsets map[int]int
	max     int
}

func (w *writer) header() {
	w.offsets = map[int]int{}
	w.buf.WriteString("%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
}

func (w *writer) object(id int, body string) {
	w.offsets[id] = w.buf.Len()
	w.max = max(w.max, id)
	fmt.Fprintf(&w.buf, "%d 0 obj\n%s\nendobj\n", id, body)
}

// stream writes a stream object; extra is more of its dictionary (e.g. a filter).
func (w *writer) stream(id int, extra string, data []byte) {
	w.offsets[id] = w.buf.Len()
	w.max = max(w.max, id)
	fmt.Fprintf(&w.buf, "%d 0 obj\n<< /Length %d %s>>\nstream\n", id, len(data), extra)
	w.buf.Write(data)
	w.buf.WriteString("\nendstream\nendobj\n")
}

// finish writes the cross-reference table and the trailer naming the catalog root.
func (w *writer) finish(root int) []byte {
	xref := w.buf.Len()
	fmt.Fprintf(&w.buf, "xref\n0 %d\n0000000000 65535 f \n", w.max+1)
	for id := 1; id <= w.max; id++ {
		if off, ok := w.offsets[id]; ok {
			fmt.Fprintf(&w.buf, "%010d 00000 n \n", off)
		} else {
			w.buf.WriteString("0000000000 65535 f \n")
		}
	}
	fmt.Fprintf(&w.buf, "trailer\n<< /Size %d /Root %d 0 R >>\nstartxref\n%d\n%%%%EOF\n", w.max+1, root, xref)
	return w.buf.Bytes()
}

// Bomb is a one-page PDF whose content stream is a FlateDecode stream of about
// size/1000 bytes that inflates to size bytes: one literal string of 'A's shown
// with Tj, so a reader that follows it holds size bytes of text.
func Bomb(size int64) []byte {
	var w writer
	w.header()
	w.object(1, "<< /Type /Catalog /Pages 2 0 R >>")
	w.object(2, "<< /Type /Pages /Kids [4 0 R] /Count 1 >>")
	w.object(3, "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>")
	w.object(4, "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents 5 0 R >>")
	w.stream(5, "/Filter /FlateDecode ", bomb(size))
	return w.finish(1)
}

// bomb is the zlib stream of "BT /F1 12 Tf (" + size 'A's + ") Tj ET". The body is
// made of one compressed megabyte repeated: after a sync flush, deflate's blocks for
// a megabyte of 'A's that follows 'A's are the same bytes every time.
func bomb(size int64) []byte {
	const mb = 1 << 20
	head, tail := []byte("BT /F1 12 Tf ("), []byte(") Tj ET\n")
	as := bytes.Repeat([]byte("A"), mb)
	var out bytes.Buffer
	zw, _ := zlib.NewWriterLevel(&out, zlib.BestCompression)
	zw.Write(head)
	zw.Write(as)
	zw.Flush()
	start := out.Len()
	zw.Write(as)
	zw.Flush()
	unit := bytes.Clone(out.Bytes()[start:])
	out.Truncate(start)
	// The compressor's state no longer matches what is written from here on, so
	// the end is written by hand: a final stored block holding the tail, then the
	// Adler-32 of everything.
	megabytes := max(size/mb, 2)
	for i := int64(1); i < megabytes; i++ {
		out.Write(unit)
	}
	out.Write(storedFinal(tail))
	sum := adler32.New()
	sum.Write(head)
	for range megabytes {
		sum.Write(as)
	}
	sum.Write(tail)
	out.Write(sum.Sum(nil))
	return out.Bytes()
}

// storedFinal is a final deflate block holding data as is (the stream is byte
// aligned after a sync flush).
func storedFinal(data []byte) []byte {
	n := len(data)
	return append([]byte{1, byte(n), byte(n >> 8), ^byte(n), ^byte(n >> 8)}, data...)
}

// BrokenXref is a valid document whose cross-reference table points every object
// at the wrong offset (into the header).
func BrokenXref() []byte {
	b := Pages(3)
	i := bytes.LastIndex(b, []byte("\nxref\n"))
	lines := bytes.Split(b[i:], []byte("\n"))
	for j, l := range lines {
		if bytes.HasSuffix(l, []byte(" 00000 n ")) {
			lines[j] = []byte("0000000003 00000 n ")
		}
	}
	return append(b[:i:i], bytes.Join(lines, []byte("\n"))...)
}

// ParentLoop is a page whose /Parent is itself and a page tree whose /Kids hold
// the tree again: a reader that follows either without a guard never ends.
func ParentLoop() []byte {
	var w writer
	w.header()
	w.object(1, "<< /Type /Catalog /Pages 2 0 R >>")
	w.object(2, "<< /Type /Pages /Kids [2 0 R 4 0 R] /Count 2 >>")
	w.object(3, "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>")
	w.object(4, "<< /Type /Page /Parent 4 0 R /MediaBox [0 0 612 792] /Contents 5 0 R >>")
	w.stream(5, "", []byte(content([]string{"a page inside a loop"})))
	return w.finish(1)
}

// PrevLoop is a document whose cross-reference section names itself as /Prev.
func PrevLoop() []byte {
	b := Pages(1)
	i := bytes.LastIndex(b, []byte("startxref\n"))
	off := strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(string(b[i+len("startxref\n"):])), "%%EOF"))
	return bytes.Replace(b, []byte("/Root 1 0 R >>"), []byte("/Root 1 0 R /Prev "+off+" >>"), 1)
}

// Garbage is the PDF header followed by n pseudo-random bytes (a fixed seed).
func Garbage(n int) []byte {
	out := []byte("%PDF-1.7\n")
	x := uint32(2463534242)
	for range n {
		x ^= x << 13
		x ^= x >> 17
		x ^= x << 5
		out = append(out, byte(x))
	}
	return append(out, "\nstartxref\n9\n%%EOF\n"...)
}
