package attach

import (
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

func TestCleanName(t *testing.T) {
	long := strings.Repeat("é", 200) // 400 bytes
	tests := []struct{ in, want string }{
		{"report.pdf", "report.pdf"},
		{"../../etc/passwd", "passwd"},
		{`C:\Users\me\secret.txt`, "secret.txt"},
		{"a\x00b.txt", "ab.txt"},
		{"evil\u202Egpj.exe", "evilgpj.exe"},
		{"\u2066x\u2069\u200e\u200f\u061c.md", "x.md"},
		{"bell\x07\u0085.txt", "bell.txt"},
		{"...hidden", "hidden"},
		{" . .x ", "x"},
		{"..", DefaultName},
		{"", DefaultName},
		{"dir/", DefaultName},
		{"\xff\xfe.txt", "txt"},
		{long, strings.Repeat("é", 127)},
	}
	for _, tt := range tests {
		if got := CleanName(tt.in); got != tt.want {
			t.Errorf("CleanName(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func FuzzCleanName(f *testing.F) {
	for _, s := range []string{"a.txt", "../x", "a\x00b", "\u202Eexe.jpg", strings.Repeat("ü", 300), ".", "\\\\"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		got := CleanName(in)
		if got == "" || len(got) > MaxNameBytes || !utf8.ValidString(got) {
			t.Fatalf("CleanName(%q) = %q", in, got)
		}
		if strings.ContainsAny(got, "/\\\x00") || strings.HasPrefix(got, ".") {
			t.Fatalf("CleanName(%q) = %q keeps a path or a leading dot", in, got)
		}
		for _, r := range got {
			if unicode.IsControl(r) || isBidiControl(r) {
				t.Fatalf("CleanName(%q) = %q keeps %U", in, got, r)
			}
		}
		if CleanName(got) != got {
			t.Fatalf("CleanName is not stable on %q", got)
		}
	})
}
