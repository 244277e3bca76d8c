package docs

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// The size of a chunk, in tokens: about chunkTarget, never more than chunkMax
// (unless one word is), ending at a paragraph once it holds chunkMin. A chunk
// that ends inside a paragraph repeats its last sentence at the start of the
// next, if that sentence is at most overlapMax.
const (
	chunkMin    = 300
	chunkTarget = 400
	chunkMax    = 500
	overlapMax  = 60
)

// piece is a chunk's text with its page.
type piece struct {
	page   int
	text   string
	tokens int
}

// chunkPage splits one page's text into chunks: never across pages, at
// paragraph and sentence ends, then at line ends and spaces for sentences too
// long on their own.
func chunkPage(page int, text string, count func(string) int) []piece {
	us := units(text, count)
	var out []piece
	first, tokens, fresh := 0, 0, 0 // the current chunk: units[first:i], fresh of them new
	emit := func(end int) {
		if fresh == 0 {
			return
		}
		if s := strings.TrimSpace(text[us[first].start:us[end-1].end]); s != "" {
			out = append(out, piece{page: page, text: s, tokens: count(s)})
		}
	}
	for i, u := range us {
		full := tokens+u.tokens > chunkMax || tokens >= chunkTarget
		if fresh > 0 && (full || u.para && tokens >= chunkMin) {
			emit(i)
			first, tokens, fresh = i, 0, 0
			// A little overlap: the last sentence again, unless a paragraph starts.
			if last := us[i-1]; !u.para && last.tokens <= overlapMax && last.tokens+u.tokens <= chunkMax {
				first, tokens = i-1, last.tokens
			}
		}
		tokens += u.tokens
		fresh++
	}
	emit(len(us))
	return out
}

// unit is a sentence (or a smaller piece of a long one): text[start:end].
type unit struct {
	start, end int
	tokens     int
	para       bool // starts a paragraph
}

// units cuts text into sentences, paragraph by paragraph; a sentence longer
// than chunkMax is cut at line ends, then at spaces, then anywhere.
func units(text string, count func(string) int) []unit {
	var out []unit
	for _, p := range spans(text, 0, len(text), paragraphEnd) {
		for j, s := range spans(text, p[0], p[1], sentenceEnd) {
			out = append(out, fit(text, s[0], s[1], j == 0, count)...)
		}
	}
	return out
}

// fit is text[start:end] as one unit, or cut smaller until each fits chunkMax.
func fit(text string, start, end int, para bool, count func(string) int) []unit {
	n := count(text[start:end])
	if n <= chunkMax || utf8.RuneCountInString(text[start:end]) <= 1 {
		return []unit{{start, end, n, para}}
	}
	var parts [][2]int
	for _, cut := range []func(string, int) int{lineEnd, wordEnd} {
		if parts = spans(text, start, end, cut); len(parts) > 1 {
			break
		}
	}
	if len(parts) <= 1 {
		parts = hardCut(text, start, end, n)
	}
	var out []unit
	for i, p := range parts {
		out = append(out, fit(text, p[0], p[1], para && i == 0, count)...)
	}
	return out
}

// hardCut cuts text[start:end], n tokens, into pieces of about chunkTarget at rune
// boundaries.
func hardCut(text string, start, end, n int) [][2]int {
	size := max(1, (end-start)*chunkTarget/max(n, 1))
	var out [][2]int
	for start < end {
		e := min(start+size, end)
		for e < end && !utf8.RuneStart(text[e]) {
			e++
		}
		out = append(out, [2]int{start, e})
		start = e
	}
	return out
}

// spans cuts text[start:end] after each place end says a span ends (end returns
// the length of the span from i, or -1: no end here).
func spans(text string, start, stop int, end func(string, int) int) [][2]int {
	var out [][2]int
	from := start
	for i := start; i < stop; {
		if n := end(text[:stop], i); n > 0 {
			if i+n > from {
				out = append(out, [2]int{from, i + n})
			}
			from, i = i+n, i+n
			continue
		}
		_, size := utf8.DecodeRuneInString(text[i:])
		i += size
	}
	if from < stop {
		out = append(out, [2]int{from, stop})
	}
	return out
}

// paragraphEnd: a blank line (a newline, spaces, a newline, and any more blank
// space) ends a paragraph; the span ends after the blank space.
func paragraphEnd(s string, i int) int {
	if s[i] != '\n' {
		return -1
	}
	j := i + 1
	for j < len(s) && (s[j] == ' ' || s[j] == '\t' || s[j] == '\r') {
		j++
	}
	if j >= len(s) || s[j] != '\n' {
		return -1
	}
	return len(s[i:]) - len(strings.TrimLeft(s[i:], " \t\r\n"))
}

// sentenceEnd: '.', '!', '?' or '…' (and closing quotes or brackets) followed by
// space end a sentence, as does a CJK full stop; the span ends after the space.
func sentenceEnd(s string, i int) int {
	r, size := utf8.DecodeRuneInString(s[i:])
	switch r {
	case '。', '！', '？':
		return size + spaceAt(s, i+size)
	case '.', '!', '?', '…':
	default:
		return -1
	}
	j := i + size
	for j < len(s) && strings.ContainsRune(`"')]»”’`, rune(s[j])) {
		j++
	}
	if j < len(s) && s[j] > utf8.RuneSelf {
		if r, n := utf8.DecodeRuneInString(s[j:]); r == '”' || r == '’' || r == '»' {
			j += n
		}
	}
	sp := spaceAt(s, j)
	if sp == 0 && j < len(s) {
		return -1
	}
	return j - i + sp
}

// lineEnd: a newline ends a line.
func lineEnd(s string, i int) int {
	if s[i] == '\n' {
		return 1 + spaceAt(s, i+1)
	}
	return -1
}

// wordEnd: space ends a word.
func wordEnd(s string, i int) int {
	if n := spaceAt(s, i); n > 0 && i > 0 {
		return n
	}
	return -1
}

// spaceAt is the length of the white space at s[i:].
func spaceAt(s string, i int) int {
	j := i
	for j < len(s) {
		r, size := utf8.DecodeRuneInString(s[j:])
		if !unicode.IsSpace(r) {
			break
		}
		j += size
	}
	return j - i
}
