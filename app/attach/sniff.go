package attach

import (
	"bytes"
	"fmt"
	"image"
	_ "image/gif"  // registered for DecodeConfig and Decode
	_ "image/jpeg" // registered for DecodeConfig and Decode
	_ "image/png"  // registered for DecodeConfig and Decode
	"io"
	"net/http"
	"path"
	"strings"
	"unicode/utf8"

	_ "golang.org/x/image/webp" // registered for DecodeConfig and Decode

	"github.com/wispapp/wisp/app/wire"
	"github.com/wispapp/wisp/internal/fault"
)

// headBytes is how much of a file's start the sniffer keeps: enough for every magic
// number and for telling HTML, XML and SVG from plain text.
const headBytes = 512

// sniffer watches bytes as they are written: it keeps their start and checks that
// they are UTF-8 without NUL (text) across writes, a rune cut between two writes
// included.
type sniffer struct {
	head   []byte
	carry  []byte // the start of a rune the last write cut
	binary bool   // a NUL or invalid UTF-8 was seen
	n      int64
}

func (s *sniffer) Write(p []byte) (int, error) {
	s.n += int64(len(p))
	if len(s.head) < headBytes {
		s.head = append(s.head, p[:min(len(p), headBytes-len(s.head))]...)
	}
	if !s.binary {
		s.checkText(p)
	}
	return len(p), nil
}

func (s *sniffer) checkText(p []byte) {
	for len(s.carry) > 0 && len(p) > 0 && !utf8.FullRune(s.carry) {
		s.carry, p = append(s.carry, p[0]), p[1:]
	}
	if len(s.carry) > 0 {
		if !utf8.FullRune(s.carry) {
			return // still cut: more to come
		}
		if r, size := utf8.DecodeRune(s.carry); (r == utf8.RuneError && size == 1) || r == 0 {
			s.binary = true
			return
		}
		s.carry = s.carry[:0]
	}
	cut := len(p)
	for i := len(p) - 1; i >= 0 && i >= len(p)-utf8.UTFMax; i-- {
		if utf8.RuneStart(p[i]) {
			if !utf8.FullRune(p[i:]) {
				cut = i
			}
			break
		}
	}
	if bytes.IndexByte(p[:cut], 0) >= 0 || !utf8.Valid(p[:cut]) {
		s.binary = true
		return
	}
	s.carry = append(s.carry, p[cut:]...)
}

// text reports whether everything written is UTF-8 without NUL.
func (s *sniffer) text() bool { return !s.binary && len(s.carry) == 0 }

// sniffed is what a file's bytes are.
type sniffed struct {
	MIME          string
	Kind          wire.AttachmentKind
	Width, Height int
}

// The image formats Wisp decodes, by MIME type.
var imageFormats = map[string]string{"image/png": "png", "image/jpeg": "jpeg", "image/gif": "gif", "image/webp": "webp"}

// imageMIME is the MIME type of an image format by its magic number, "" for none.
func imageMIME(head []byte) string {
	switch {
	case bytes.HasPrefix(head, []byte("\x89PNG\r\n\x1a\n")):
		return "image/png"
	case bytes.HasPrefix(head, []byte("\xff\xd8\xff")):
		return "image/jpeg"
	case bytes.HasPrefix(head, []byte("GIF87a")), bytes.HasPrefix(head, []byte("GIF89a")):
		return "image/gif"
	case len(head) >= 12 && string(head[:4]) == "RIFF" && string(head[8:12]) == "WEBP":
		return "image/webp"
	}
	return ""
}

// classify says what a file is from its bytes alone: an image by its magic number
// whose header decodes (and whose pixels are within maxPixels, else a TooLarge
// fault), a PDF by %PDF-, text when it is all UTF-8 without NUL, else a file. r reads
// the whole file from its start (for an image's header); name only picks the subtype
// of a text (Markdown, CSV, JSON), never the kind.
func classify(head []byte, isText bool, r io.Reader, name string, maxPixels int64) (sniffed, error) {
	if mt := imageMIME(head); mt != "" {
		cfg, _, err := image.DecodeConfig(r)
		if err == nil && cfg.Width > 0 && cfg.Height > 0 {
			if err := checkPixels(cfg.Width, cfg.Height, maxPixels); err != nil {
				return sniffed{}, err
			}
			return sniffed{MIME: mt, Kind: wire.AttachmentImage, Width: cfg.Width, Height: cfg.Height}, nil
		}
		// A broken header: not an image Wisp can show; the bytes decide below.
	}
	switch {
	case bytes.HasPrefix(head, []byte("%PDF-")):
		return sniffed{MIME: "application/pdf", Kind: wire.AttachmentPDF}, nil
	case isText:
		return sniffed{MIME: textMIME(head, name), Kind: wire.AttachmentText}, nil
	}
	return sniffed{MIME: "application/octet-stream", Kind: wire.AttachmentFile}, nil
}

// checkPixels refuses an image with more than maxPixels pixels before anything
// decodes it: a small file can declare a picture gigabytes large.
func checkPixels(w, h int, maxPixels int64) error {
	if maxPixels > 0 && int64(w)*int64(h) > maxPixels {
		return fault.TooLarge.Errorf("the image is %d×%d pixels; Wisp reads at most %s", w, h, megapixels(maxPixels))
	}
	return nil
}

func megapixels(n int64) string {
	if n%1_000_000 == 0 {
		return fmt.Sprintf("%d megapixels", n/1_000_000)
	}
	return fmt.Sprintf("%d pixels", n)
}

// textSubtypes are the text types a name's extension may pick; anything else is
// text/plain unless its start says HTML, XML or SVG.
var textSubtypes = map[string]string{
	".md": "text/markdown", ".markdown": "text/markdown", ".csv": "text/csv", ".tsv": "text/tab-separated-values",
	".json": "application/json", ".yaml": "application/yaml", ".yml": "application/yaml",
}

func textMIME(head []byte, name string) string {
	start := strings.ToLower(string(head))
	trimmed := strings.TrimLeft(strings.TrimPrefix(start, "\ufeff"), " \t\r\n")
	switch {
	case strings.HasPrefix(trimmed, "<svg"), strings.HasPrefix(trimmed, "<?xml") && strings.Contains(start, "<svg"),
		strings.HasPrefix(trimmed, "<!doctype svg"):
		return "image/svg+xml"
	case strings.HasPrefix(http.DetectContentType(head), "text/html"):
		return "text/html; charset=utf-8"
	case strings.HasPrefix(trimmed, "<?xml"):
		return "text/xml; charset=utf-8"
	}
	if mt, ok := textSubtypes[strings.ToLower(path.Ext(name))]; ok {
		if strings.HasPrefix(mt, "text/") {
			return mt + "; charset=utf-8"
		}
		return mt
	}
	return "text/plain; charset=utf-8"
}
