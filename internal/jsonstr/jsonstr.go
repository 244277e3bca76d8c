// Package jsonstr writes JSON strings fast, for the hot paths that build their frames
// by hand (chat token frames, terminal output events) instead of through
// encoding/json's reflection.
//
// It imports nothing of Wisp, so leaf packages may use it.
package jsonstr

import (
	"slices"
	"unicode/utf8"
)

const hexDigits = "0123456789abcdef"

// width is how many bytes an ASCII byte takes inside a JSON string.
var width = func() (w [utf8.RuneSelf]uint8) {
	for c := range w {
		switch {
		case c == '"' || c == '\\' || c == '\n' || c == '\r' || c == '\t':
			w[c] = 2
		case c < 0x20:
			w[c] = 6 // \u00XX
		default:
			w[c] = 1
		}
	}
	return w
}()

// Len is how many bytes AppendBody writes for s.
func Len(s string) int {
	n := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			n += int(width[c])
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1, r == '\u2028', r == '\u2029':
			n += 6
		default:
			n += size
		}
		i += size
	}
	return n
}

// Append appends s as a quoted JSON string, growing b once.
func Append(b []byte, s string) []byte {
	b = slices.Grow(b, Len(s)+2)
	b = append(b, '"')
	return append(AppendBody(b, s), '"')
}

// AppendBody appends s escaped as the inside of a JSON string. Control characters
// are escaped, invalid UTF-8 becomes U+FFFD (as encoding/json does), and U+2028 and
// U+2029 are escaped for JavaScript's sake.
func AppendBody(b []byte, s string) []byte {
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if width[c] == 1 {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			b = appendEscape(b, c)
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			start = i + size
		case r == '\u2028' || r == '\u2029':
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hexDigits[r&0xf])
			start = i + size
		}
		i += size
	}
	return append(b, s[start:]...)
}

func appendEscape(b []byte, c byte) []byte {
	switch c {
	case '"', '\\':
		return append(b, '\\', c)
	case '\n':
		return append(b, '\\', 'n')
	case '\r':
		return append(b, '\\', 'r')
	case '\t':
		return append(b, '\\', 't')
	}
	return append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
}
