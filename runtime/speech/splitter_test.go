package speech

import (
	"fmt"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

// split feeds text whole and flushes, returning the clauses' texts.
func split(text string, early bool) []Clause {
	s := &Splitter{Early: early}
	return append(s.Feed(text), s.Flush()...)
}

func texts(cs []Clause) []string {
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = c.Text
	}
	return out
}

func TestSplitterClauses(t *testing.T) {
	cases := []struct {
		name, in string
		early    bool
		want     []string
	}{
		{"sentences", "Hello there. How are you? I am fine!", false, []string{"Hello there.", "How are you?", "I am fine!"}},
		{"no end punctuation", "just words", false, []string{"just words"}},
		{"newline ends a clause", "First line\nSecond line", false, []string{"First line", "Second line"}},
		{"ellipsis", "Well… let me think... okay.", false, []string{"Well…", "let me think...", "okay."}},
		{"abbreviations", "See e.g. the docs, i.e. this page. Dr. Smith met Mr. Jones at 5 p.m. in the U.S. today. Cats vs. dogs etc. are fine.", false,
			[]string{"See e.g. the docs, i.e. this page.", "Dr. Smith met Mr. Jones at 5 p.m. in the U.S. today.", "Cats vs. dogs etc. are fine."}},
		{"decimals and versions", "Pi is 3.14 and Go is v1.26.0 now. Next.", false, []string{"Pi is 3.14 and Go is v1.26.0 now.", "Next."}},
		{"ellipsis inside numbers", "Count 1...10 slowly. Done.", false, []string{"Count 1...10 slowly.", "Done."}},
		{"file names", "Open main.go and README.md first. Then run.", false, []string{"Open main.go and README.md first.", "Then run."}},
		{"quotes after the end", `He said "stop." Then left.`, false, []string{`He said "stop."`, "Then left."}},
		{"emphasis", "This is **very** _important_ and *nice*.", false, []string{"This is very important and nice."}},
		{"snake case kept", "Call my_func now.", false, []string{"Call my_func now."}},
		{"heading", "## The plan\nWe go.", false, []string{"The plan", "We go."}},
		{"lists", "- one\n* two\n+ three\n1. four\n12) five", false, []string{"one", "two", "three", "four", "five"}},
		{"quote", "> a wise word.\n> > nested", false, []string{"a wise word.", "nested"}},
		{"rule", "Above.\n---\nBelow.", false, []string{"Above.", "Below."}},
		{"link", "Read [the guide](https://example.com/a_(b)) today.", false, []string{"Read the guide today."}},
		{"bare url", "Go to https://example.com/x?y=1. Then wait.", false, []string{"Go to a link.", "Then wait."}},
		{"www url", "Try www.example.org now", false, []string{"Try a link now"}},
		{"url in brackets", "See (https://x.org/a) or <http://y.org>. Ok", false, []string{"See a link or a link.", "Ok"}},
		{"image", "Look: ![a cat](cat.png) cute.", false, []string{"Look: an image cute."}},
		{"inline code", "Run `go test` now.", false, []string{"Run go test now."}},
		{"code fence", "Here:\n```go\nfunc main() {}\n// done. yes.\n```\nThat is it.", false, []string{"Here:", "a code block", "That is it."}},
		{"tilde fence", "~~~\nx. y.\n~~~\nok", false, []string{"a code block", "ok"}},
		{"unclosed fence", "Code:\n```\nforever. and ever", false, []string{"Code:", "a code block"}},
		{"table", "Data:\n| a | b |\n|---|---|\n| 1 | 2 |\nAfter.", false, []string{"Data:", "a table", "After."}},
		{"table at end", "| a |\n| 1 |", false, []string{"a table"}},
		{"emoji", "Great job! 🎉🎉 You did it 👍.", false, []string{"Great job!", "You did it ."}},
		{"emoji joined", "Yes!🎉Next one.", false, []string{"Yes!", "Next one."}},
		{"cjk", "你好。我是助手！你呢？好的", false, []string{"你好。", "我是助手！", "你呢？", "好的"}},
		{"cjk comma long", strings.Repeat("字", 130) + "，后面。", false, []string{strings.Repeat("字", 130) + "，", "后面。"}},
		{"long clause cut at comma", strings.Repeat("word ", 25) + "and more, then the rest.", false,
			[]string{strings.Repeat("word ", 25) + "and more,", "then the rest."}},
		{"short comma kept", "Yes, of course, sure.", false, []string{"Yes, of course, sure."}},
		{"early first clause", "Well, that is a very good question, let me think about it, and then answer.", true,
			[]string{"Well, that is a very good question,", "let me think about it, and then answer."}},
		{"only markup", "**\n---\n  \n", false, nil},
		{"empty", "", false, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := texts(split(c.in, c.early))
			if strings.Join(got, "|") != strings.Join(c.want, "|") || len(got) != len(c.want) {
				t.Errorf("split(%q)\n got %q\nwant %q", c.in, got, c.want)
			}
			checkClauses(t, c.in, split(c.in, c.early))
			checkChunked(t, c.in, c.early)
		})
	}
}

func TestSplitterOffsets(t *testing.T) {
	in := "Hi 😀 there. **Bold** end!\n```\ncode\n```\nx"
	got := split(in, false)
	// UTF-16: the emoji is two units.
	want := []Clause{{"Hi there.", 0, 12}, {"Bold end!", 15, 26}, {"a code block", 27, 39}, {"x", 40, 41}}
	if len(got) != len(want) {
		t.Fatalf("got %+v", got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("clause %d = %+v, want %+v", i, got[i], want[i])
		}
	}
}

// The early clause is the first only: Feed emits it before the rest has come.
func TestSplitterEarlyClauseStreams(t *testing.T) {
	s := &Splitter{Early: true}
	if got := s.Feed("Sure, "); len(got) != 0 {
		t.Fatalf("short first clause cut: %+v", got)
	}
	got := s.Feed("thing: here is what I found today, and ")
	if len(got) != 1 || got[0].Text != "Sure, thing:" {
		t.Fatalf("early clause = %+v", got)
	}
	if got := s.Feed("more words, and yet more words follow"); len(got) != 0 {
		t.Fatalf("a later short clause was cut early: %+v", got)
	}
}

// A fence's clause comes when it closes, not before.
func TestSplitterFenceEmittedWhenClosed(t *testing.T) {
	s := &Splitter{}
	if got := s.Feed("Look:\n```sh\nls -la.\nmore. lines.\n"); len(got) != 1 || got[0].Text != "Look:" {
		t.Fatalf("inside the fence: %+v", got)
	}
	if got := s.Feed("``"); len(got) != 0 {
		t.Fatalf("half a fence closed it: %+v", got)
	}
	if got := s.Feed("`\n"); len(got) != 1 || got[0].Text != "a code block" {
		t.Fatalf("closing the fence: %+v", got)
	}
}

// Hostile input stays linear and bounded.
func TestSplitterHostileInput(t *testing.T) {
	cases := map[string]string{
		"1 MB line":          strings.Repeat("abcdefghij ", 100_000),
		"1 MB word":          strings.Repeat("x", 1<<20),
		"100k sentences":     strings.Repeat("Hi. ", 100_000),
		"unclosed fence":     "```\n" + strings.Repeat("code line.\n", 50_000),
		"nested markdown":    strings.Repeat("> ", 200_000) + strings.Repeat("[", 100_000) + strings.Repeat("*", 100_000),
		"open link target":   "[x](" + strings.Repeat("((((", 100_000),
		"url":                "https://" + strings.Repeat("a", 1<<20),
		"invalid utf-8":      strings.Repeat("\xff\xfe\xc3", 100_000),
		"image alt no close": "![" + strings.Repeat("alt ", 100_000),
		"table":              strings.Repeat("| a | b |\n", 50_000),
	}
	for name, in := range cases {
		t.Run(name, func(t *testing.T) {
			start := time.Now()
			s := &Splitter{Early: true}
			var got []Clause
			for i := 0; i < len(in); i += 4096 {
				got = append(got, s.Feed(in[i:min(i+4096, len(in))])...)
				if len(s.in) > linePrefixMax+4 || len(s.word) > 4*MaxClause || len(s.text) > 4*MaxClause+16 {
					t.Fatalf("buffers grew: in %d word %d text %d", len(s.in), len(s.word), len(s.text))
				}
			}
			got = append(got, s.Flush()...)
			for _, c := range got {
				if n := utf8.RuneCountInString(c.Text); n > MaxClause {
					t.Fatalf("a clause of %d runes", n)
				}
			}
			checkClauses(t, in, got)
			if d := time.Since(start); d > 5*time.Second {
				t.Errorf("took %s", d)
			}
		})
	}
}

// checkClauses checks that clauses are non-empty, ordered and within the text.
func checkClauses(t *testing.T, in string, cs []Clause) {
	t.Helper()
	n, last := Units(in), 0
	for i, c := range cs {
		if strings.TrimSpace(c.Text) == "" {
			t.Fatalf("clause %d is empty", i)
		}
		if c.Start < last || c.End < c.Start || c.End > n {
			t.Fatalf("clause %d %+v out of order or bounds (last end %d, length %d)", i, c, last, n)
		}
		last = c.End
	}
}

// checkChunked checks that feeding in every split point (and byte by byte) gives the
// same clauses as one Feed.
func checkChunked(t *testing.T, in string, early bool) {
	t.Helper()
	want := split(in, early)
	for cut := 0; cut <= len(in); cut++ {
		s := &Splitter{Early: early}
		got := append(s.Feed(in[:cut]), s.Feed(in[cut:])...)
		got = append(got, s.Flush()...)
		same(t, want, got, in)
	}
	s := &Splitter{Early: early}
	var got []Clause
	for i := 0; i < len(in); i++ {
		got = append(got, s.Feed(in[i:i+1])...)
	}
	same(t, want, append(got, s.Flush()...), in)
}

func same(t *testing.T, want, got []Clause, in string) {
	t.Helper()
	if len(want) != len(got) {
		t.Fatalf("chunked %q: got %+v, want %+v", in, got, want)
	}
	for i := range want {
		if want[i] != got[i] {
			t.Fatalf("chunked %q: clause %d = %+v, want %+v", in, i, got[i], want[i])
		}
	}
}

func FuzzSplitter(f *testing.F) {
	for _, s := range []string{"Hello. World!", "```\ncode\n```\n", "| a |\n", "[x](http://y) ![i](j)", "你好。", "e.g. 3.14 v1.2.", "\xff\xfe😀", "> - # x"} {
		f.Add(s, uint8(3))
	}
	f.Fuzz(func(t *testing.T, in string, chunk uint8) {
		wd := time.AfterFunc(10*time.Second, func() { panic(fmt.Sprintf("WATCHDOG %q %d", in, chunk)) })
		defer wd.Stop()
		want := split(in, true)
		checkClauses(t, in, want)
		size := int(chunk%16) + 1
		s := &Splitter{Early: true}
		var got []Clause
		for i := 0; i < len(in); i += size {
			got = append(got, s.Feed(in[i:min(i+size, len(in))])...)
		}
		same(t, want, append(got, s.Flush()...), in)
	})
}

func TestSplitterPending(t *testing.T) {
	cases := []struct {
		in   string
		want bool
	}{
		{"", false}, {"Hi. ", false}, {"Hi. there", true}, {"Hi. **", false}, {"Hi. ---", false},
		{"Hi.\n```\n", true}, {"Hi.\n| a", true}, {"Hi. http://x", true}, {"Hi, you", true},
	}
	for _, c := range cases {
		s := &Splitter{}
		s.Feed(c.in)
		if got := s.Pending(); got != c.want {
			t.Errorf("Pending after %q = %v", c.in, got)
		}
	}
}
