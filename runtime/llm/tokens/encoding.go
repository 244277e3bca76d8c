package tokens

import (
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/tiktoken-go/tokenizer/codec"
)

// pieceSize bounds the bytes tokenized at once, so that no input, however long its
// words or runs of one character, costs more than linear time and a bounded
// amount of scratch memory.
const pieceSize = 4 << 10

// encoding is a tiktoken encoding built on its first use.
type encoding struct {
	name  string
	once  sync.Once
	codec *codec.Codec
}

func newEncoding(name string) *encoding { return &encoding{name: name} }

func (e *encoding) Name() string { return e.name }

// load builds the codec once. Its vocabulary is a map literal compiled into the
// binary; building it is the cost of the first use.
func (e *encoding) load() *codec.Codec {
	e.once.Do(func() {
		switch e.name {
		case "o200k_base":
			e.codec = codec.NewO200kBase()
		default:
			e.codec = codec.NewCl100kBase()
		}
	})
	return e.codec
}

// Count is the number of tokens the encoding makes of text. The codec is safe for
// concurrent counting: it only reads its vocabulary and compiled expression.
func (e *encoding) Count(text string) int {
	if text == "" {
		return 0
	}
	c := e.load()
	n := 0
	for text != "" {
		piece := text
		if len(piece) > pieceSize {
			piece = text[:cut(text, pieceSize)]
		}
		text = text[len(piece):]
		n += countPiece(c, piece)
	}
	return n
}

// countPiece counts one piece; a tokenizer failure (which its regular expression
// engine may report on pathological input) falls back to one token per byte pair,
// an over-estimate for any text.
func countPiece(c *codec.Codec, piece string) int {
	piece = validUTF8(piece)
	n, err := c.Count(piece)
	if err != nil {
		return (len(piece) + 1) / 2
	}
	return n
}

// cut is where to end a piece of at most limit bytes of text (len(text) > limit):
// before the last whitespace that follows a non-space in its final quarter, where
// the tokenizer would split anyway, else at a rune start (invalid UTF-8 is cut
// anywhere).
func cut(text string, limit int) int {
	for i := limit; i > limit*3/4; i-- {
		if isSpace(text[i]) && !isSpace(text[i-1]) {
			return i
		}
	}
	for i := limit; i > limit-utf8.UTFMax; i-- {
		if utf8.RuneStart(text[i]) {
			return i
		}
	}
	return limit
}

// validUTF8 replaces each invalid byte of s with U+FFFD, as encoding/json does
// when it sends s to a provider.
func validUTF8(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + len(s)/2)
	for _, r := range s {
		b.WriteRune(r) // an invalid byte ranges as utf8.RuneError
	}
	return b.String()
}

func isSpace(b byte) bool { return b == ' ' || b == '\n' || b == '\t' || b == '\r' }
