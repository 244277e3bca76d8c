package speech

import "testing"

func TestSpoken(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"Hello! This is how I sound.", "Hello! This is how I sound."},
		{"**Reminder:** stretch", "Reminder: stretch"},
		{"Run this:\n\n```sh\nmake test\n```\n\nThen see https://example.com/x.", "Run this: a code block Then see a link."},
		{"See [the docs](https://wisp.example/docs) for more.", "See the docs for more."},
		{"```\nonly code\n```", "a code block"},
		{"", ""},
	} {
		if got := Spoken(tc.in); got != tc.want {
			t.Errorf("Spoken(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
