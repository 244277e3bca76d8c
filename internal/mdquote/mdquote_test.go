package mdquote

import (
	"strings"
	"testing"
)

func TestQuote(t *testing.T) {
	tests := []struct{ in, inline string }{
		{"ls -la", "` ls -la `"},
		{"echo `date`\nls", "`` echo `date` ls ``"},
		{"a ``` b", "```` a ``` b ````"},
	}
	for _, tt := range tests {
		if got := Inline(tt.in); got != tt.inline {
			t.Errorf("Inline(%q) = %q, want %q", tt.in, got, tt.inline)
		}
	}
	if got := Fenced("```\nx"); !strings.HasPrefix(got, "````\n") || !strings.HasSuffix(got, "\n````") {
		t.Errorf("Fenced = %q", got)
	}
	if got := Fenced("plain"); got != "```\nplain\n```" {
		t.Errorf("Fenced = %q", got)
	}
}
