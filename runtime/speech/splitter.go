package speech

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// The bounds of a clause, in runes of spoken text.
const (
	// MaxClause is the longest clause: a longer stretch is cut at a space (or, for
	// one word without any, where it reaches the bound).
	MaxClause = 400
	// LongClause is the length past which a clause is cut at , ; or :.
	LongClause = 120
	// EarlyClause is the length past which the first clause is cut at , ; or :
	// (Splitter.Early), so that speech starts sooner: "Sure thing," is said while
	// the model writes the rest (a shorter one, "Well,", waits for more).
	EarlyClause = 8
)

// linePrefixMax bounds how much of a line's start is read to find its markdown marks.
const linePrefixMax = 32

// Spoken names of what is not read out.
const (
	saidCode  = "a code block"
	saidTable = "a table"
	saidLink  = "a link"
	saidImage = "an image"
)

// Clause is one piece of a reply as it is spoken.
type Clause struct {
	Text string // what is said: plain words, markdown gone
	// Start and End bound the clause in the segment's text, in UTF-16 code units
	// (JavaScript string indexes): End is after its last character.
	Start, End int
}

// Splitter cuts one reply segment's text into clauses while it streams: Feed it each
// delta, then Flush it at the segment's end. The zero value is ready; set Early for
// the reply's first segment. Feeding the text in any chunks gives the same clauses.
// Work is linear in the text and memory bounded by MaxClause (a fenced block or a URL
// is skipped, not kept).
type Splitter struct {
	// Early lets the first clause be cut at , ; or : once it is EarlyClause runes long.
	Early bool

	in       []byte // fed and not yet read (at most a line's start or one rune)
	off      int    // UTF-16 offset of in[0] in the segment
	flushing bool
	out      []Clause

	// Block state.
	midLine    bool // past the current line's start marks
	skipLine   bool // the rest of the line is not spoken (a fence, a table row, a rule)
	fence      byte // the open fence's character ('`' or '~'), 0 when none
	fenceN     int  // its length
	fenceStart int
	table      bool
	tableStart int
	tableEnd   int

	// Inline state.
	afterBracket bool // the last character was a ] : a ( opens a link target
	linkDepth    int  // inside a link's (target): its open parentheses
	imageAlt     bool // inside an image's [alt]
	imageStart   int

	// The word being read.
	word      []byte
	wordRunes int
	wordStart int
	wordEnd   int
	url       bool // the word is a URL: its characters are skipped
	// wordSpoken: the word has a letter or a digit (it will be said).
	wordSpoken bool
	urlLast    rune

	// The clause being built.
	text      []byte
	textRunes int
	start     int
	end       int
}

// Feed reads more of the segment's text and returns the clauses it completed.
func (s *Splitter) Feed(delta string) []Clause {
	s.in = append(s.in, delta...)
	s.read()
	return s.take()
}

// Flush reads the rest of the segment as its end and returns the last clauses (an
// unclosed code block is still "a code block").
func (s *Splitter) Flush() []Clause {
	s.flushing = true
	s.read()
	s.endWord()
	s.emit()
	s.endTable()
	if s.fence != 0 {
		s.emitSaid(saidCode, s.fenceStart, s.off)
		s.fence = 0
	}
	if s.imageAlt {
		s.imageAlt = false
		s.emitSaid(saidImage, s.imageStart, s.off)
	}
	return s.take()
}

// Pending reports whether text read so far will still be spoken: words not yet in a
// clause, or an open code block or table. (A caller holding back its last clause
// until it knows whether another follows can let it go.)
func (s *Splitter) Pending() bool {
	return s.textRunes > 0 || s.wordSpoken || s.url || s.imageAlt || s.fence != 0 || s.table
}

func (s *Splitter) take() []Clause {
	out := s.out
	s.out = nil
	return out
}

// read handles as much of the unread input as can be decided now.
func (s *Splitter) read() {
	i := 0
	for i < len(s.in) {
		b := s.in[i:]
		if !s.midLine {
			n, ok := s.lineStart(b)
			if !ok {
				break
			}
			s.off += units(b[:n])
			i += n
			s.midLine = true
			continue
		}
		if !s.flushing && !utf8.FullRune(b) {
			break
		}
		r, size := utf8.DecodeRune(b)
		if s.skipLine {
			s.skip(r, size)
			i += size
			continue
		}
		if r == '!' && !s.imageAlt && s.linkDepth == 0 {
			if len(b) < 2 && !s.flushing {
				break
			}
			if len(b) >= 2 && b[1] == '[' {
				s.endWord()
				s.imageAlt, s.imageStart = true, s.off
				s.off += 2
				i += 2
				continue
			}
		}
		s.char(r, size)
		i += size
	}
	s.in = s.in[:copy(s.in, s.in[i:])]
}

// skip passes over a character of a line that is not spoken.
func (s *Splitter) skip(r rune, size int) {
	if r == '\n' {
		s.skipLine, s.midLine = false, false
	} else if s.table {
		s.tableEnd = s.off + runeUnits(r, size)
	}
	s.off += runeUnits(r, size)
}

// char handles one character within a line.
func (s *Splitter) char(r rune, size int) {
	at, next := s.off, s.off+runeUnits(r, size)
	s.off = next
	if s.afterBracket {
		s.afterBracket = false
		if r == '(' {
			s.linkDepth = 1
			return
		}
	}
	switch {
	case r == '\n':
		s.newline()
	case s.linkDepth > 0:
		switch {
		case r == '(':
			s.linkDepth++
		case r == ')':
			s.linkDepth--
		case unicode.IsSpace(r):
			s.linkDepth = 0
			s.endWord()
		}
	case s.imageAlt:
		if r == ']' {
			s.imageAlt = false
			s.said(saidImage, s.imageStart, next)
			s.afterBracket = true
		}
	case unicode.IsSpace(r) || isEmoji(r):
		s.endWord()
	case r == '*' || r == '`' || r == '[':
		// emphasis, inline code and a link's text are spoken plain
	case r == ']':
		s.afterBracket = true
	case strings.ContainsRune("。！？，；：、", r):
		// CJK has no spaces: its punctuation ends the word
		s.addRune(r, size, at, next)
		s.endWord()
	default:
		s.addRune(r, size, at, next)
	}
}

// newline ends the word and the clause.
func (s *Splitter) newline() {
	s.linkDepth = 0
	if s.imageAlt {
		s.imageAlt = false
		s.said(saidImage, s.imageStart, s.off-1)
	}
	s.endWord()
	s.emit()
	s.midLine = false
}

// lineStart reads a line's start marks (a fence, a table row, a heading, a list or
// quote mark, a rule) and returns how many bytes of b they took; ok is false when more
// input is needed to tell.
func (s *Splitter) lineStart(b []byte) (n int, ok bool) {
	j := 0
	for j < len(b) && j < linePrefixMax && strings.IndexByte(" \t#>-*+_|`~0123456789.)", b[j]) >= 0 {
		j++
	}
	if j == len(b) && !s.flushing { // the character after the marks is needed too
		return 0, false
	}
	p := b[:j]
	k := indent(p)
	if s.fence != 0 {
		if c := count(p[k:], s.fence); k <= 3 && c >= s.fenceN {
			s.emitSaid(saidCode, s.fenceStart, s.off+units(p[:k+c]))
			s.fence = 0
		}
		s.skipLine = true
		return 0, true
	}
	if s.table && !(k < len(p) && p[k] == '|') {
		s.endTable()
	}
	rest := p[k:]
	switch {
	case len(rest) > 0 && (rest[0] == '`' || rest[0] == '~') && count(rest, rest[0]) >= 3:
		s.fence, s.fenceN, s.fenceStart = rest[0], count(rest, rest[0]), s.off+k
		s.skipLine = true
		return 0, true
	case len(rest) > 0 && rest[0] == '|':
		if !s.table {
			s.table, s.tableStart = true, s.off+k
		}
		s.skipLine = true
		return 0, true
	case isRule(p) && (j == len(b) || b[j] == '\n'):
		s.skipLine = true
		return 0, true
	}
	return k + marks(rest), true
}

// marks is the length of the quote, heading and list marks that start rest.
func marks(rest []byte) int {
	n := 0
	for n < len(rest) && (rest[n] == '>' || rest[n] == ' ' || rest[n] == '\t') {
		n++
	}
	r := rest[n:]
	spaced := func(m int) bool { return m < len(r) && (r[m] == ' ' || r[m] == '\t') }
	switch {
	case len(r) > 0 && r[0] == '#':
		if h := count(r, '#'); h <= 6 && spaced(h) {
			return n + h + 1
		}
	case len(r) > 0 && (r[0] == '-' || r[0] == '*' || r[0] == '+'):
		if spaced(1) {
			return n + 2
		}
	default:
		d := 0
		for d < len(r) && d < 9 && r[d] >= '0' && r[d] <= '9' {
			d++
		}
		if d > 0 && d < len(r) && (r[d] == '.' || r[d] == ')') && spaced(d+1) {
			return n + d + 2
		}
	}
	return n
}

// isRule reports whether a line's start is a thematic break (---, ***, ___).
func isRule(p []byte) bool {
	n := 0
	var c byte
	for _, b := range p {
		switch b {
		case ' ', '\t':
		case '-', '*', '_':
			if c != 0 && b != c {
				return false
			}
			c = b
			n++
		default:
			return false
		}
	}
	return n >= 3
}

func indent(p []byte) int {
	k := 0
	for k < len(p) && (p[k] == ' ' || p[k] == '\t') {
		k++
	}
	return k
}

func count(p []byte, c byte) int {
	n := 0
	for n < len(p) && p[n] == c {
		n++
	}
	return n
}

func (s *Splitter) endTable() {
	if s.table {
		s.table = false
		s.emitSaid(saidTable, s.tableStart, max(s.tableEnd, s.tableStart))
	}
}

// addRune adds a character to the word, spanning [at, next) in the segment.
func (s *Splitter) addRune(r rune, size, at, next int) {
	if s.wordRunes == 0 && !s.url {
		s.wordStart = at
	}
	s.wordEnd = next
	if s.url {
		s.urlLast = r
		return
	}
	s.word = utf8.AppendRune(s.word, r)
	s.wordRunes++
	s.wordSpoken = s.wordSpoken || unicode.IsLetter(r) || unicode.IsDigit(r)
	if s.wordRunes <= 12 && isURLStart(s.word) {
		s.url, s.word, s.wordRunes = true, s.word[:0], 0
		return
	}
	if s.wordRunes >= MaxClause {
		s.endWord() // one word as long as a clause: cut it here
		s.emit()
	}
}

// isURLStart reports whether a word so far is the start of a URL (after an opening
// bracket or quote, say "(https://").
func isURLStart(w []byte) bool {
	l := strings.ToLower(strings.TrimLeft(string(w), "(<\"'“‘«"))
	return l == "http://" || l == "https://" || l == "www."
}

// said adds a named thing ("an image") as a word spanning [start, end).
func (s *Splitter) said(text string, start, end int) {
	s.endWord()
	s.appendWord(text, utf8.RuneCountInString(text), start, end)
}

// endWord adds the word read to the clause, and ends the clause at a sentence's end
// (or at , ; : when the clause is long, or early).
func (s *Splitter) endWord() {
	if s.wordRunes == 0 && !s.url {
		return
	}
	w, runes := string(s.word), s.wordRunes
	if s.url {
		w, runes = saidLink, len(saidLink)
		if strings.ContainsRune(".,;:!?", s.urlLast) {
			w += string(s.urlLast)
			runes++
		}
	}
	start, end := s.wordStart, s.wordEnd
	s.word, s.wordRunes, s.url, s.wordSpoken = s.word[:0], 0, false, false
	w = strings.Trim(w, "_~")
	kind := ending(w)
	if !hasWordChar(w) && kind == none {
		return // punctuation alone: dashes, pipes
	}
	if w == "" {
		return
	}
	s.appendWord(w, utf8.RuneCountInString(w), start, end)
	switch {
	case kind == full:
		s.emit()
	case kind == soft && (s.textRunes > LongClause || s.Early && s.textRunes >= EarlyClause):
		s.emit()
	}
}

func (s *Splitter) appendWord(w string, runes, start, end int) {
	if s.textRunes > 0 && s.textRunes+1+runes > MaxClause {
		s.emit()
	}
	if s.textRunes == 0 {
		s.start = start
	} else {
		s.text = append(s.text, ' ')
		s.textRunes++
	}
	s.text = append(s.text, w...)
	s.textRunes += runes
	s.end = end
}

// emit ends the clause being built, if it has any text.
func (s *Splitter) emit() {
	if s.textRunes == 0 {
		return
	}
	s.out = append(s.out, Clause{Text: string(s.text), Start: s.start, End: s.end})
	s.text, s.textRunes = s.text[:0], 0
	s.Early = false
}

// emitSaid ends the clause being built and adds a named block as its own clause.
func (s *Splitter) emitSaid(text string, start, end int) {
	s.endWord()
	s.emit()
	s.out = append(s.out, Clause{Text: text, Start: start, End: max(end, start)})
	s.Early = false
}

type endKind int

const (
	none endKind = iota
	soft         // , ; :
	full         // . ! ? …
)

var abbreviations = map[string]bool{
	"e.g.": true, "i.e.": true, "dr.": true, "mr.": true, "mrs.": true, "ms.": true, "st.": true,
	"vs.": true, "etc.": true, "a.m.": true, "p.m.": true, "u.s.": true, "jr.": true, "sr.": true,
	"prof.": true, "cf.": true, "approx.": true,
}

// ending says how a word ends a clause: a sentence's end, a pause, or not at all.
func ending(w string) endKind {
	core := strings.TrimRight(w, "\"'”’)]»")
	r, _ := utf8.DecodeLastRuneInString(core)
	switch r {
	case '.':
		if abbreviations[strings.ToLower(strings.TrimLeft(core, "(\"'“‘«"))] {
			return none
		}
		return full
	case '!', '?', '…', '。', '！', '？':
		return full
	case ',', ';', ':', '，', '；', '：', '、':
		return soft
	}
	return none
}

func hasWordChar(w string) bool {
	for _, r := range w {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			return true
		}
	}
	return false
}

// isEmoji reports whether r is an emoji or one of its joiners and modifiers: they are
// not spoken, and separate words.
func isEmoji(r rune) bool {
	switch {
	case r >= 0x1F000 && r <= 0x1FAFF, r >= 0x2600 && r <= 0x27BF, r >= 0x1F3FB && r <= 0x1F3FF,
		r == 0x200D, r == 0xFE0F, r == 0xFE0E, r == 0x20E3, r >= 0xE0020 && r <= 0xE007F:
		return true
	}
	return false
}

// runeUnits is how many UTF-16 code units a decoded rune takes (a byte that is not
// UTF-8 is one, as U+FFFD).
func runeUnits(r rune, size int) int {
	if r >= 0x10000 && size == 4 {
		return 2
	}
	return 1
}

// units is the length of b in UTF-16 code units, as read by the splitter.
func units(b []byte) int {
	n := 0
	for len(b) > 0 {
		r, size := utf8.DecodeRune(b)
		n += runeUnits(r, size)
		b = b[size:]
	}
	return n
}

// Units is the length of text in UTF-16 code units as the splitter counts them.
func Units(text string) int { return units([]byte(text)) }
