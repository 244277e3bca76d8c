package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"unicode/utf16"
	"unicode/utf8"
)

// dataKey starts the last field of a stdout or stderr event as Wisp's encoder
// writes it (wire.TerminalOutput.AppendJSON): {"type":…,"runId":…,"event":…,"seq":…,"data":"…"}.
var (
	outputPrefix = []byte(`{"type":"terminal-output",`)
	dataKey      = []byte(`,"data":"`)
)

// decodeCounting is the --client=count decoder: for an output event it
// decodes everything but the data string with encoding/json, and only counts
// the bytes the data string decodes to (escapes resolved as encoding/json
// does, without building the string). Any other frame is decoded in full.
// Frame.Data is then left empty and dataLen says how long it is; for other
// frames dataLen is len(Data).
func decodeCounting(b []byte, f *frame) (dataLen int, err error) {
	i := bytes.Index(b, dataKey)
	if !bytes.HasPrefix(b, outputPrefix) || i < 0 {
		err = json.Unmarshal(b, f)
		return len(f.Data), err
	}
	head := make([]byte, 0, i+1)
	head = append(append(head, b[:i]...), '}')
	if err := json.Unmarshal(head, f); err != nil {
		return 0, err
	}
	body := b[i+len(dataKey):]
	if !bytes.HasSuffix(body, []byte(`"}`)) {
		return 0, errors.New("an output event does not end with its data string")
	}
	return jsonStringLen(body[:len(body)-2])
}

var errBadString = errors.New("bad JSON string")

// jsonStringLen returns how many bytes the body of a JSON string (between its
// quotes) decodes to. It is one pass over the bytes, so that the client costs
// as little as it can next to Wisp on the same cores.
func jsonStringLen(s []byte) (int, error) {
	n := 0
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c >= 0x20 && c < utf8.RuneSelf && c != '\\':
			n++
			i++
		case c >= utf8.RuneSelf:
			j := i + 1
			for j < len(s) && s[j] >= utf8.RuneSelf {
				j++
			}
			n += plainLen(s[i:j])
			i = j
		case c != '\\' || i+1 >= len(s):
			return 0, errBadString // a raw control character, or a trailing backslash
		case s[i+1] != 'u':
			switch s[i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			default:
				return 0, errBadString
			}
			n++
			i += 2
		default:
			r, ok := hex4(s[i+2:])
			if !ok {
				return 0, errBadString
			}
			i += 6
			if utf16.IsSurrogate(r) {
				// A pair makes one character; a lone half is U+FFFD, as encoding/json does.
				if i+6 <= len(s) && s[i] == '\\' && s[i+1] == 'u' {
					if r2, ok := hex4(s[i+2:]); ok {
						if dec := utf16.DecodeRune(r, r2); dec != utf8.RuneError {
							n += utf8.RuneLen(dec)
							i += 6
							continue
						}
					}
				}
				r = utf8.RuneError
			}
			n += utf8.RuneLen(r)
		}
	}
	return n, nil
}

// plainLen is the decoded length of unescaped string bytes: invalid UTF-8
// becomes U+FFFD (3 bytes), as encoding/json does.
func plainLen(s []byte) int {
	if utf8.Valid(s) {
		return len(s)
	}
	n := 0
	for len(s) > 0 {
		r, size := utf8.DecodeRune(s)
		if r == utf8.RuneError && size == 1 {
			n += 3
		} else {
			n += size
		}
		s = s[size:]
	}
	return n
}

// hexVal maps a hex digit to its value and anything else to -1.
var hexVal = func() (t [256]int8) {
	for i := range t {
		t[i] = -1
	}
	for i, c := range "0123456789abcdef" {
		t[c] = int8(i)
	}
	for i, c := range "ABCDEF" {
		t[c] = int8(10 + i)
	}
	return t
}()

func hex4(s []byte) (rune, bool) {
	if len(s) < 4 {
		return 0, false
	}
	a, b, c, d := hexVal[s[0]], hexVal[s[1]], hexVal[s[2]], hexVal[s[3]]
	if a|b|c|d < 0 {
		return 0, false
	}
	return rune(a)<<12 | rune(b)<<8 | rune(c)<<4 | rune(d), true
}
