package approval

import (
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

func TestCheckMemo(t *testing.T) {
	cases := []struct{ in, want, err string }{
		{"  Likes tea \n", "Likes tea", ""},
		{"Projects:\nWisp\nAIRI", "Projects:\nWisp\nAIRI", ""},
		{"Emoji 👩‍💻 stay", "Emoji 👩‍💻 stay", ""},
		{strings.Repeat("é", MaxMemoRunes), strings.Repeat("é", MaxMemoRunes), ""},
		{strings.Repeat("é", MaxMemoRunes+1), "", "over the"},
		{"", "", "required"},
		{" \n\t ", "", "required"},
		{"tab\there", "", "control"},
		{"cr\r\nlf", "", "control"},
		{"esc \x1b[2J", "", "control"},
		{"nul \x00", "", "control"},
		{"del \x7f", "", "control"},
		{"c1 \u0085 x", "", "control"},
		{"rlo \u202egnp.exe", "", "control"},
		{"isolate \u2067x\u2069", "", "control"},
		{"bad \xff", "", "UTF-8"},
	}
	for _, tc := range cases {
		got, err := CheckMemo(tc.in)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("CheckMemo(%.30q): %q, %v; want an error with %q", tc.in, got, err, tc.err)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("CheckMemo(%.30q) = %q, %v; want %q", tc.in, got, err, tc.want)
		}
	}
}

func FuzzCheckMemo(f *testing.F) {
	for _, s := range []string{"Likes tea", "a\nb", "\x1b[31m", "\u202e", strings.Repeat("x", 2001)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		got, err := CheckMemo(in)
		if err != nil {
			return
		}
		if got == "" || !utf8.ValidString(got) || utf8.RuneCountInString(got) > MaxMemoRunes || got != strings.TrimSpace(got) {
			t.Fatalf("CheckMemo(%q) = %q", in, got)
		}
		for _, r := range got {
			if (unicode.IsControl(r) && r != '\n') || isBidiControl(r) {
				t.Fatalf("CheckMemo(%q) kept %U", in, r)
			}
		}
	})
}
