package attach

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// MaxNameBytes bounds a cleaned name, cut at a rune boundary.
const MaxNameBytes = 255

// DefaultName is the name of an attachment whose name cleans to nothing.
const DefaultName = "attachment"

// CleanName makes a client's file name safe to store, show and send back in a
// Content-Disposition: the base name only (the part after the last / or \), without
// NUL, C0 and C1 controls, bidirectional controls (which can make "gpj.exe" read as
// "exe.jpg") or leading dots, invalid UTF-8 dropped, at most MaxNameBytes bytes; never
// empty.
func CleanName(name string) string {
	if i := strings.LastIndexAny(name, `/\`); i >= 0 {
		name = name[i+1:]
	}
	var b strings.Builder
	for _, r := range name {
		if r == utf8.RuneError || unicode.IsControl(r) || isBidiControl(r) {
			continue
		}
		b.WriteRune(r)
	}
	name = strings.TrimRightFunc(strings.TrimLeftFunc(b.String(), func(r rune) bool {
		return r == '.' || unicode.IsSpace(r)
	}), unicode.IsSpace)
	if len(name) > MaxNameBytes {
		cut := MaxNameBytes
		for cut > 0 && !utf8.RuneStart(name[cut]) {
			cut--
		}
		name = strings.TrimRightFunc(name[:cut], unicode.IsSpace)
	}
	if name == "" {
		return DefaultName
	}
	return name
}

// isBidiControl reports the characters that reorder the text around them: the
// embeddings and overrides (U+202A–U+202E), the isolates (U+2066–U+2069) and the
// marks (U+200E, U+200F, U+061C).
func isBidiControl(r rune) bool {
	return (r >= 0x202A && r <= 0x202E) || (r >= 0x2066 && r <= 0x2069) || r == 0x200E || r == 0x200F || r == 0x061C
}
