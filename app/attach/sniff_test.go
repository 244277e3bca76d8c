package attach

import (
	"bytes"
	"testing"
	"unicode/utf8"

	"github.com/wispapp/wisp/app/wire"
	"github.com/wispapp/wisp/internal/fault"
)

// sniffAll classifies data written to a sniffer in pieces of n bytes.
func sniffAll(t testing.TB, data []byte, n int, name string) (sniffed, error) {
	t.Helper()
	s := &sniffer{}
	for rest := data; len(rest) > 0; {
		k := min(n, len(rest))
		s.Write(rest[:k])
		rest = rest[k:]
	}
	return classify(s.head, s.text(), bytes.NewReader(data), name, DefaultMaxPixels)
}

func TestClassify(t *testing.T) {
	png1 := pngBytes(t, 64, 48, false)
	tests := []struct {
		name string
		data []byte
		mime string
		kind wire.AttachmentKind
	}{
		{"a.png", png1, "image/png", wire.AttachmentImage},
		{"a.txt", []byte("hello, wörld\n"), "text/plain; charset=utf-8", wire.AttachmentText},
		{"notes.md", []byte("# title\n"), "text/markdown; charset=utf-8", wire.AttachmentText},
		{"page.png", []byte("<!DOCTYPE html><html><script>alert(1)</script>"), "text/html; charset=utf-8", wire.AttachmentText},
		{"pic.svg", []byte(`<svg xmlns="http://www.w3.org/2000/svg"><script/></svg>`), "image/svg+xml", wire.AttachmentText},
		{"doc.pdf", []byte("%PDF-1.7\n\x00\xff binary"), "application/pdf", wire.AttachmentPDF},
		{"x.bin", []byte{0, 1, 2, 3}, "application/octet-stream", wire.AttachmentFile},
		{"bad.png", []byte("\x89PNG\r\n\x1a\ngarbage\x00"), "application/octet-stream", wire.AttachmentFile},
		{"empty", nil, "text/plain; charset=utf-8", wire.AttachmentText},
		{"latin1.txt", []byte("caf\xe9"), "application/octet-stream", wire.AttachmentFile},
	}
	for _, tt := range tests {
		got, err := sniffAll(t, tt.data, 3, tt.name)
		if err != nil || got.MIME != tt.mime || got.Kind != tt.kind {
			t.Errorf("%s: %+v %v, want %s %s", tt.name, got, err, tt.mime, tt.kind)
		}
	}
	if got, _ := sniffAll(t, png1, 7, ""); got.Width != 64 || got.Height != 48 {
		t.Errorf("size %dx%d", got.Width, got.Height)
	}
	_, err := sniffAll(t, hugePNG(t, 40000, 40000), 5, "bomb.png")
	if !fault.Is(err, fault.TooLarge) || err.Error() != "the image is 40000×40000 pixels; Wisp reads at most 50 megapixels" {
		t.Errorf("a huge image: %v", err)
	}
}

// The text check across writes agrees with utf8.Valid on the whole, wherever the
// writes cut the runes.
func FuzzSniffer(f *testing.F) {
	f.Add([]byte("héllo 世界 🎉"), uint8(1))
	f.Add([]byte("a\x00b"), uint8(2))
	f.Add([]byte("\xe4\xb8"), uint8(1))
	f.Add([]byte("\xef\xbf\xbd ok"), uint8(2))
	f.Add([]byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"), uint8(3))
	f.Fuzz(func(t *testing.T, data []byte, step uint8) {
		n := int(step%16) + 1
		s := &sniffer{}
		for rest := data; len(rest) > 0; {
			k := min(n, len(rest))
			s.Write(rest[:k])
			rest = rest[k:]
		}
		want := utf8.Valid(data) && bytes.IndexByte(data, 0) < 0
		if s.text() != want {
			t.Fatalf("text() = %v for %q in steps of %d, want %v", s.text(), data, n, want)
		}
		got, err := classify(s.head, s.text(), bytes.NewReader(data), "f", DefaultMaxPixels)
		if err == nil && got.Kind == wire.AttachmentText && !want {
			t.Fatalf("binary %q classified as text", data)
		}
	})
}
