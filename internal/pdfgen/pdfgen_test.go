package pdfgen

import (
	"bytes"
	"compress/zlib"
	"io"
	"regexp"
	"strconv"
	"testing"
)

// The bomb is what it claims: a small file whose stream inflates, checksum and
// all, to the size asked.
func TestBombInflatesToItsSize(t *testing.T) {
	const size = 64 << 20
	b := Bomb(size)
	if len(b) > size/500 {
		t.Fatalf("the bomb is %d bytes, more than a 500th of %d", len(b), size)
	}
	start := bytes.Index(b, []byte("stream\n")) + len("stream\n")
	end := bytes.LastIndex(b, []byte("\nendstream"))
	zr, err := zlib.NewReader(bytes.NewReader(b[start:end]))
	if err != nil {
		t.Fatal(err)
	}
	n, err := io.Copy(io.Discard, zr)
	if err != nil {
		t.Fatalf("inflate: %v after %d bytes", err, n)
	}
	if want := int64(size + len("BT /F1 12 Tf (") + len(") Tj ET\n")); n != want {
		t.Fatalf("inflates to %d bytes, want %d", n, want)
	}
}

// Every object the cross-reference table of a document lists starts where it says;
// the broken one points elsewhere.
func TestXrefOffsets(t *testing.T) {
	entry := regexp.MustCompile(`(?m)^(\d{10}) 00000 n $`)
	for name, c := range map[string]struct {
		doc  []byte
		good bool
	}{"pages": {Pages(4), true}, "broken": {BrokenXref(), false}} {
		entries := entry.FindAllSubmatch(c.doc, -1)
		if len(entries) < 3 {
			t.Fatalf("%s: %d entries", name, len(entries))
		}
		for i, e := range entries {
			off, _ := strconv.Atoi(string(e[1]))
			want := strconv.Itoa(i+1) + " 0 obj"
			if got := bytes.HasPrefix(c.doc[off:], []byte(want)); got != c.good {
				t.Errorf("%s: object %d at %d: starts there %v", name, i+1, off, got)
			}
		}
	}
}
