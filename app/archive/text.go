package archive

import (
	"unicode/utf8"

	"github.com/wispapp/wisp/internal/fault"
)

// checkText refuses a file that is not text JSON may carry: bytes that are not UTF-8
// (RFC 8259 §8.1: JSON text must be UTF-8) and escapes of half a UTF-16 surrogate
// pair, such as "\ud800" alone (§8.2: what they mean is unpredictable). Go's decoder
// would turn both into U+FFFD in strings, silently, and keep them as they are in raw
// values (metadata, content, output), which then reach every client.
//
// It is one pass over the bytes, before anything is decoded, and allocates nothing.
// Offsets count from 0 in data, which is the file as uploaded (a byte order mark
// included).
func checkText(data []byte) error {
	inString := false
	for i := 0; i < len(data); {
		b := data[i]
		switch {
		case b >= utf8.RuneSelf:
			r, size := utf8.DecodeRune(data[i:])
			if r == utf8.RuneError && size == 1 {
				return notUTF8(b, i)
			}
			i += size
		case b == '"':
			inString = !inString
			i++
		case b == '\\' && inString:
			size, err := checkEscape(data, i)
			if err != nil {
				return err
			}
			i += size
		default:
			i++
		}
	}
	return nil
}

// checkEscape checks the escape that starts at data[i] (a backslash in a string) and
// returns how many bytes it takes. It refuses only a surrogate without its other
// half: the decoder tells any other bad escape.
func checkEscape(data []byte, i int) (int, error) {
	if i+1 >= len(data) || data[i+1] >= utf8.RuneSelf {
		return 1, nil // the byte after is checked as UTF-8 next
	}
	code, ok := hexEscape(data, i)
	if !ok {
		return 2, nil
	}
	switch {
	case code >= 0xDC00 && code <= 0xDFFF:
		return 0, loneSurrogate(data[i:i+6], i)
	case code >= 0xD800 && code <= 0xDBFF:
		if low, ok := hexEscape(data, i+6); !ok || low < 0xDC00 || low > 0xDFFF {
			return 0, loneSurrogate(data[i:i+6], i)
		}
		return 12, nil
	}
	return 6, nil
}

// hexEscape reads a \uXXXX escape at data[i]: its code and whether there is one.
func hexEscape(data []byte, i int) (rune, bool) {
	if i+6 > len(data) || data[i] != '\\' || data[i+1] != 'u' {
		return 0, false
	}
	var code rune
	for _, c := range data[i+2 : i+6] {
		var digit byte
		switch {
		case c >= '0' && c <= '9':
			digit = c - '0'
		case c >= 'a' && c <= 'f':
			digit = c - 'a' + 10
		case c >= 'A' && c <= 'F':
			digit = c - 'A' + 10
		default:
			return 0, false
		}
		code = code<<4 | rune(digit)
	}
	return code, true
}

func notUTF8(b byte, offset int) error {
	return fault.Invalid.Errorf("the file is not UTF-8: byte 0x%02X at offset %d is not valid UTF-8, and "+
		"JSON text must be UTF-8 (RFC 8259 §8.1); save it as UTF-8 and import it again", b, offset)
}

func loneSurrogate(escape []byte, offset int) error {
	return fault.Invalid.Errorf("the file has a lone surrogate %s at offset %d: half of a UTF-16 pair is "+
		"not a character, and RFC 8259 §8.2 leaves what it means unpredictable", escape, offset)
}
