package shell

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestPlain(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"colours", "\x1b[31mred\x1b[0m\r\n", "red\n"},
		{"cursor moves", "a\x1b[2K\x1b[1Gb", "ab"},
		{"a title", "\x1b]0;title\x07text", "text"},
		{"a link", "\x1b]8;;https://x\x1b\\link\x1b]8;;\x1b\\", "link"},
		{"a progress bar keeps what it showed last", "10%\r50%\r100%\ndone\n", "100%\ndone\n"},
		{"invalid UTF-8", "a\xffb", "a\uFFFDb"},
		{"plain text stays", "just text\nlines\n", "just text\nlines\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Plain(tt.in); got != tt.want {
				t.Fatalf("Plain(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestHeadTail(t *testing.T) {
	if got := HeadTail("short", 100); got != "short" {
		t.Fatalf("short output changed: %q", got)
	}
	long := strings.Repeat("h", 10_000) + strings.Repeat("é", 10_000) + strings.Repeat("t", 10_000)
	got := HeadTail(long, 16<<10)
	if !strings.HasPrefix(got, strings.Repeat("h", 8192)) || !strings.HasSuffix(got, strings.Repeat("t", 8192)) {
		t.Fatal("head or tail lost")
	}
	if !strings.Contains(got, "bytes of output cut") || len(got) > 16<<10+64 || !utf8.ValidString(got) {
		t.Fatalf("cut output: %d bytes, valid %v", len(got), utf8.ValidString(got))
	}
	all := strings.Repeat("é", 20_000)
	if got := HeadTail(all, 1001); !utf8.ValidString(got) {
		t.Fatal("a cut fell inside a character")
	}
}

func TestLastLines(t *testing.T) {
	if got := LastLines("a\nb\nc\n", 2, 10); strings.Join(got, ",") != "b,c" {
		t.Fatalf("last lines = %q", got)
	}
	if got := LastLines("", 3, 10); got != nil {
		t.Fatalf("no output = %q", got)
	}
	if got := LastLines(strings.Repeat("é", 50), 1, 9); got[0] != strings.Repeat("é", 4)+"…" {
		t.Fatalf("a long line = %q", got[0])
	}
}
