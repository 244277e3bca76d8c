package shellgrant

import (
	"fmt"
	"unicode"
	"unicode/utf8"
)

// Limits that keep one analysis short whatever the input. They are checked by
// a linear scan before the parser sees the command.
const (
	maxInput = 8 << 10 // bytes
	maxDepth = 32      // brackets, parentheses and braces open at once
)

// checkInput refuses text that Bash and the parser could read differently, or
// that the user could not read on the approval card, and text too long or too
// deeply nested to check in time. "" when the command can be parsed.
func checkInput(s string) string {
	if len(s) > maxInput {
		return fmt.Sprintf("%s: it is longer than %d KiB", tooComplex, maxInput>>10)
	}
	if !utf8.ValidString(s) {
		return "the command is not valid UTF-8: Bash and the checker could split it differently"
	}
	if d := nesting(s); d > maxDepth {
		return fmt.Sprintf("%s: more than %d brackets are open at once", tooComplex, maxDepth)
	}
	for i, r := range s {
		if reason := checkRune(r); reason != "" {
			return reason
		}
		if r >= utf8.RuneSelf && i+utf8.RuneLen(r) < len(s) && localeTrail(s[i+utf8.RuneLen(r)]) {
			return fmt.Sprintf("`%c` right after a non-ASCII character: in some locales (Shift JIS, GBK, Big5) Bash reads the two as one character", s[i+utf8.RuneLen(r)])
		}
	}
	return ""
}

// checkRune refuses control characters (NUL ends Bash's string; \r is part of
// a word to Bash but not to the parser; \x01 and \x7f are Bash's own quoting
// markers) and characters that hide or disguise text on the card.
func checkRune(r rune) string {
	switch {
	case r == '\t' || r == '\n':
		return ""
	case r == '\r':
		return "the command holds a carriage return (\\r): Bash and the checker read it differently"
	case r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0):
		return fmt.Sprintf("the command holds the control character %U", r)
	case unicode.Is(unicode.Cf, r) || unicode.Is(unicode.Zl, r) || unicode.Is(unicode.Zp, r):
		return fmt.Sprintf("the command holds the invisible character %U, which can disguise what it runs", r)
	case r != ' ' && unicode.Is(unicode.Zs, r):
		return fmt.Sprintf("the command holds %U, a space that is not one to Bash", r)
	}
	return ""
}

// localeTrail reports whether an ASCII byte can be the second byte of a
// two-byte character in Shift JIS, GBK or Big5 and is special to Bash: after a
// non-ASCII byte, Bash in such a locale swallows it.
func localeTrail(b byte) bool {
	switch b {
	case '@', '[', '\\', ']', '`', '{', '|', '}', '~':
		return true
	}
	return false
}

// nesting estimates how many brackets are open at once at most: every (, [
// and { against ), ] and }, outside single quotes and backslash escapes. It is
// found without parsing, to refuse deep nesting before the parser sees it; the
// walk checks the real depth of the syntax tree too (maxTreeDepth).
func nesting(s string) int {
	depth, most := 0, 0
	single := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case single:
			single = c != '\''
		case c == '\\':
			i++
		case c == '\'':
			single = true
		case c == '(' || c == '[' || c == '{':
			depth++
			most = max(most, depth)
		case c == ')' || c == ']' || c == '}':
			depth = max(depth-1, 0)
		}
	}
	return most
}
