package terminal

import "unicode/utf8"

// completePrefix returns how many leading bytes of b can be sent without splitting a
// UTF-8 sequence: everything except an unfinished sequence at the very end. Bytes
// that can never become valid are not held back.
func completePrefix(b []byte) int {
	// A sequence is at most 4 bytes: look at the last 3 for its first byte.
	for i := len(b) - 1; i >= 0 && i >= len(b)-3; i-- {
		c := b[i]
		if c < utf8.RuneSelf {
			return len(b) // ASCII: nothing pending after it
		}
		if utf8.RuneStart(c) {
			if utf8.FullRune(b[i:]) {
				return len(b)
			}
			return i
		}
	}
	return len(b)
}

// runeStart moves i forward to the start of a character (at most 3 bytes), so a
// string cut at i does not begin inside a UTF-8 sequence.
func runeStart(s string, i int) int {
	for n := 0; n < utf8.UTFMax-1 && i < len(s) && !utf8.RuneStart(s[i]); n++ {
		i++
	}
	return i
}

// runeEnd moves i back so that s[:i] does not end inside a UTF-8 sequence.
func runeEnd(s string, i int) int {
	if i >= len(s) {
		return len(s)
	}
	for n := 0; n < utf8.UTFMax-1 && i > 0 && !utf8.RuneStart(s[i]); n++ {
		i--
	}
	return i
}
