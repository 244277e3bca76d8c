package docs

import (
	"strings"
	"testing"
)

func bytesOver4(s string) int { return (len(s) + 3) / 4 }

// sentence is a sentence of n words of 4 letters and a space each: about n+1
// tokens at bytes/4.
func sentence(n int, tag string) string {
	return tag + strings.Repeat(" word", n-1) + "."
}

func TestChunkPage(t *testing.T) {
	para := func(sentences ...string) string { return strings.Join(sentences, " ") }
	many := func(k, words int) string {
		var s []string
		for i := range k {
			s = append(s, sentence(words, string(rune('A'+i%26))+"x"))
		}
		return para(s...)
	}
	cases := []struct {
		name  string
		text  string
		check func(t *testing.T, got []piece)
	}{
		{"empty", "  \n\n ", func(t *testing.T, got []piece) {
			if len(got) != 0 {
				t.Errorf("%d chunks of nothing", len(got))
			}
		}},
		{"short", "One sentence. Two.", func(t *testing.T, got []piece) {
			if len(got) != 1 || got[0].text != "One sentence. Two." {
				t.Errorf("%+v", got)
			}
		}},
		{"paragraphs end chunks once they hold enough", para(many(7, 50)) + "\n\n" + many(3, 50), func(t *testing.T, got []piece) {
			// 7 sentences of ~63 tokens (~440) then a paragraph: it starts the next chunk.
			if len(got) != 2 || !strings.HasPrefix(got[1].text, "Ax") || strings.Contains(got[0].text, "\n\n") {
				t.Errorf("%d chunks: %q", len(got), heads(got))
			}
		}},
		{"sentences cut a long paragraph, with overlap", many(20, 40), func(t *testing.T, got []piece) {
			if len(got) < 3 {
				t.Fatalf("%d chunks", len(got))
			}
			for i, c := range got {
				if !strings.HasSuffix(c.text, ".") {
					t.Errorf("chunk %d ends inside a sentence: …%q", i, c.text[len(c.text)-10:])
				}
				if i > 0 {
					prev := got[i-1].text
					last := prev[strings.LastIndex(prev[:len(prev)-1], ".")+2:]
					if !strings.HasPrefix(c.text, last) {
						t.Errorf("chunk %d does not start with the last sentence of %d (%q)", i, i-1, last[:10])
					}
				}
			}
		}},
		{"a sentence too long is cut at spaces", sentence(3000, "Long"), func(t *testing.T, got []piece) {
			if len(got) < 6 || !strings.HasPrefix(got[0].text, "Long word") {
				t.Errorf("%d chunks: %q", len(got), heads(got))
			}
		}},
		{"one huge word is cut anyway", strings.Repeat("é", 5000), func(t *testing.T, got []piece) {
			var total int
			for _, c := range got {
				total += len([]rune(c.text))
			}
			if len(got) < 5 || total != 5000 {
				t.Errorf("%d chunks of %d runes", len(got), total)
			}
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := chunkPage(7, c.text, bytesOver4)
			for i, p := range got {
				if p.page != 7 || p.tokens > chunkMax || p.tokens != bytesOver4(p.text) || p.text != strings.TrimSpace(p.text) {
					t.Errorf("chunk %d: page %d, %d tokens, %q…", i, p.page, p.tokens, head(p.text))
				}
			}
			c.check(t, got)
		})
	}
}

// Every word of a page is in some chunk, in order.
func TestChunkPageKeepsEveryWord(t *testing.T) {
	var b strings.Builder
	for i := range 3000 {
		b.WriteString("w" + string(rune('a'+i%26)))
		switch {
		case i%97 == 0:
			b.WriteString(".\n\n")
		case i%13 == 0:
			b.WriteString(". ")
		case i%7 == 0:
			b.WriteString("\n")
		default:
			b.WriteString(" ")
		}
	}
	text := b.String()
	got := chunkPage(1, text, bytesOver4)
	joined := ""
	for _, c := range got {
		joined += " " + c.text
	}
	words := strings.Fields(text)
	seen := strings.Fields(joined)
	j := 0
	for _, w := range seen {
		if j < len(words) && w == words[j] {
			j++
		}
	}
	if j != len(words) {
		t.Fatalf("chunks keep %d of %d words in order", j, len(words))
	}
}

func TestMatchExpr(t *testing.T) {
	cases := map[string]string{
		"What does KEYWORD-137 say?": `"KEYWORD 137"`,
		"the of and ???":             ``,
		`"quoted" NEAR(a b) OR *`:    `"quoted" OR "NEAR a"`,
		"revenue Revenue 2024, café": `"revenue" OR "2024" OR "café"`,
		"":                           ``,
		"a b c 7":                    `"7"`,
	}
	for in, want := range cases {
		if got := matchExpr(in); got != want {
			t.Errorf("matchExpr(%q) = %q, want %q", in, got, want)
		}
	}
	long := strings.Repeat("word1 word2 ", 100)
	if n := strings.Count(matchExpr(long), " OR "); n != 1 {
		t.Errorf("repeated words: %d ORs", n)
	}
}

func heads(ps []piece) []string {
	var out []string
	for _, p := range ps {
		out = append(out, head(p.text))
	}
	return out
}

func head(s string) string { return s[:min(len(s), 12)] }
