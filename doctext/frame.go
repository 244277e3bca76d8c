package doctext

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"strings"
)

// The child's output: the magic, then frames of one type byte, a big-endian
// uint32 payload length and the payload.
//
//	'p' a page: uint32 page number, then its text (UTF-8)
//	'e' the PDF could not be read: the reason (text), the last frame
//	'd' done: one byte, 1 if pages or text were cut; the last frame
const (
	magic       = "WISPDOC1"
	framePage   = 'p'
	frameError  = 'e'
	frameDone   = 'd'
	maxErrorLen = 4 << 10
)

// errNoChild: the executable did not answer as the child: main does not call
// RunChildIfAsked first thing.
var errNoChild = errors.New("the reader did not start: the program must call doctext.RunChildIfAsked first thing in main")

// output is what the child said.
type output struct {
	pages     []Page
	truncated bool
	failure   string // an 'e' frame's reason
	done      bool   // an 'e' or 'd' frame ended the stream
}

// decode reads the child's framed output within b: a frame larger than its
// bound, a page out of order or beyond b.Pages, or more text than b.Text is an
// error, as is a stream that ends before its last frame (the pages read so far
// are kept).
func decode(r io.Reader, b Bounds) (output, error) {
	var out output
	br := bufio.NewReader(r)
	head := make([]byte, len(magic))
	if _, err := io.ReadFull(br, head); err != nil || string(head) != magic {
		return out, errNoChild
	}
	var text int64
	for {
		var h [5]byte
		if _, err := io.ReadFull(br, h[:]); err != nil {
			return out, fmt.Errorf("the reader's output ended early: %w", io.ErrUnexpectedEOF)
		}
		size := int64(binary.BigEndian.Uint32(h[1:]))
		var limit int64
		switch h[0] {
		case framePage:
			limit = 4 + b.PageText
		case frameError:
			limit = maxErrorLen
		case frameDone:
			limit = 1
		default:
			return out, fmt.Errorf("the reader wrote an unknown frame %q", h[0])
		}
		if size > limit {
			return out, fmt.Errorf("the reader wrote a frame of %d bytes (at most %d)", size, limit)
		}
		payload := make([]byte, size)
		if _, err := io.ReadFull(br, payload); err != nil {
			return out, fmt.Errorf("the reader's output ended early: %w", io.ErrUnexpectedEOF)
		}
		switch h[0] {
		case framePage:
			if size < 4 {
				return out, errors.New("the reader wrote a page without its number")
			}
			n := int(binary.BigEndian.Uint32(payload))
			prev := 0
			if len(out.pages) > 0 {
				prev = out.pages[len(out.pages)-1].N
			}
			if n <= prev || n > b.Pages {
				return out, fmt.Errorf("the reader wrote page %d after page %d", n, prev)
			}
			if text += size - 4; text > b.Text {
				return out, fmt.Errorf("the reader wrote more than %d bytes of text", b.Text)
			}
			out.pages = append(out.pages, Page{N: n, Text: strings.ToValidUTF8(string(payload[4:]), "\uFFFD")})
		case frameError:
			out.failure, out.done = strings.ToValidUTF8(string(payload), "\uFFFD"), true
			return out, nil
		case frameDone:
			out.truncated, out.done = size == 1 && payload[0] == 1, true
			return out, nil
		}
	}
}

// encoder writes the child's frames.
type encoder struct{ w *bufio.Writer }

func newEncoder(w io.Writer) *encoder {
	e := &encoder{bufio.NewWriterSize(w, 64<<10)}
	e.w.WriteString(magic)
	e.w.Flush() // at once: the parent knows the child started
	return e
}

func (e *encoder) frame(kind byte, parts ...[]byte) {
	var h [5]byte
	h[0] = kind
	n := 0
	for _, p := range parts {
		n += len(p)
	}
	binary.BigEndian.PutUint32(h[1:], uint32(n))
	e.w.Write(h[:])
	for _, p := range parts {
		e.w.Write(p)
	}
}

func (e *encoder) page(n int, text string) {
	var num [4]byte
	binary.BigEndian.PutUint32(num[:], uint32(n))
	e.frame(framePage, num[:], []byte(text))
}

func (e *encoder) fail(reason string) error {
	if len(reason) > maxErrorLen {
		reason = strings.ToValidUTF8(reason[:maxErrorLen], "")
	}
	e.frame(frameError, []byte(reason))
	return e.w.Flush()
}

func (e *encoder) done(truncated bool) error {
	t := byte(0)
	if truncated {
		t = 1
	}
	e.frame(frameDone, []byte{t})
	return e.w.Flush()
}
