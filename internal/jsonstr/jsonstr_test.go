package jsonstr

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestAppend(t *testing.T) {
	cases := map[string]string{
		"":                 `""`,
		"plain":            `"plain"`,
		"q\"b\\":           `"q\"b\\"`,
		"a\nb\r\tc":        `"a\nb\r\tc"`,
		"\x00\x1f\x1b[31m": `"\u0000\u001f\u001b[31m"`,
		"é 🎵":              `"é 🎵"`,
		"bad\xffbyte":      `"bad\ufffdbyte"`,
		"ls\u2028ps\u2029": `"ls\u2028ps\u2029"`,
		"<b>&":             `"<b>&"`,
	}
	for in, want := range cases {
		if got := string(Append(nil, in)); got != want {
			t.Errorf("Append(%q) = %s, want %s", in, got, want)
		}
	}
}

// Whatever the text, the output is valid JSON that decodes to what encoding/json's
// own encoding decodes to (each invalid byte becoming U+FFFD), and Len is exact.
func FuzzAppend(f *testing.F) {
	for _, s := range []string{"", "hi", "a\"b", "\x00", "\xff\xfe", "🎵\u2028", "\xe2\x82", strings.Repeat("\\", 9)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out := Append([]byte("x"), s)[1:]
		if len(out) != Len(s)+2 {
			t.Fatalf("%d bytes, Len says %d", len(out), Len(s))
		}
		var got string
		if err := json.Unmarshal(out, &got); err != nil {
			t.Fatalf("invalid JSON %q for %q: %v", out, s, err)
		}
		ref, _ := json.Marshal(s)
		var want string
		_ = json.Unmarshal(ref, &want)
		if got != want {
			t.Fatalf("round trip of %q gave %q, want %q", s, got, want)
		}
	})
}
