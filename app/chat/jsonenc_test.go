package chat

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestAppendJSONString(t *testing.T) {
	cases := map[string]string{
		"":                 `""`,
		"plain":            `"plain"`,
		"q\"b\\":           `"q\"b\\"`,
		"a\nb\r\tc":        `"a\nb\r\tc"`,
		"\x00\x1f":         `"\u0000\u001f"`,
		"é 🎵":              `"é 🎵"`,
		"bad\xffbyte":      `"bad\ufffdbyte"`,
		"ls\u2028ps\u2029": `"ls\u2028ps\u2029"`,
		"<b>&":             `"<b>&"`,
	}
	for in, want := range cases {
		if got := string(appendJSONString(nil, in)); got != want {
			t.Errorf("appendJSONString(%q) = %s, want %s", in, got, want)
		}
	}
}

// Whatever the text, the output is valid JSON that decodes to the same text
// (invalid UTF-8 becoming U+FFFD, as encoding/json does).
func FuzzAppendJSONString(f *testing.F) {
	for _, s := range []string{"", "hi", "a\"b", "\x00", "\xff\xfe", "🎵\u2028", strings.Repeat("\\", 9)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out := appendJSONString([]byte("x"), s)[1:]
		var got string
		if err := json.Unmarshal(out, &got); err != nil {
			t.Fatalf("invalid JSON %q for %q: %v", out, s, err)
		}
		want := strings.ToValidUTF8(s, "\uFFFD")
		if !utf8.ValidString(s) {
			// encoding/json replaces each invalid byte; so do we.
			var w strings.Builder
			for i := 0; i < len(s); {
				r, n := utf8.DecodeRuneInString(s[i:])
				w.WriteRune(r)
				i += n
			}
			want = w.String()
		}
		if got != want {
			t.Fatalf("round trip of %q gave %q", s, got)
		}
	})
}
