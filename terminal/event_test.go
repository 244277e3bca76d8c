package terminal

import (
	"testing"
	"unicode/utf8"
)

func TestCompletePrefix(t *testing.T) {
	euro := "€" // e2 82 ac
	tests := []struct {
		in   string
		want int
	}{
		{"", 0},
		{"abc", 3},
		{"a" + euro, 4},
		{"a" + euro[:1], 1},
		{"a" + euro[:2], 1},
		{"😀"[:3], 0},
		{"\xff", 1},           // never valid: not held back
		{"a\x82", 2},          // a stray continuation byte is not held back
		{"ab\x82\x82\x82", 5}, // nor a run of them
	}
	for _, tt := range tests {
		if got := completePrefix([]byte(tt.in)); got != tt.want {
			t.Errorf("completePrefix(% x) = %d, want %d", tt.in, got, tt.want)
		}
	}
}

// FuzzCompletePrefix: cutting valid text anywhere, the part sent is valid, and at
// most 3 bytes (one unfinished character) are held back.
func FuzzCompletePrefix(f *testing.F) {
	f.Add("a€😀é", 3)
	f.Fuzz(func(t *testing.T, s string, cut int) {
		if !utf8.ValidString(s) || len(s) == 0 {
			return
		}
		cut = ((cut % (len(s) + 1)) + len(s) + 1) % (len(s) + 1)
		b := []byte(s[:cut])
		n := completePrefix(b)
		if !utf8.Valid(b[:n]) || len(b)-n > 3 {
			t.Fatalf("cut %d of %q: sent %d bytes", cut, s, n)
		}
		if !utf8.ValidString(s[n:]) {
			t.Fatalf("the rest %q is not valid on its own", s[n:])
		}
	})
}
