package shellgrant

import (
	"strings"
	"unicode/utf8"

	"mvdan.cc/sh/v3/syntax"
)

// literal is a word's value when the shell gives it that value however it
// runs: plain text and quotes only, with no expansion, substitution, glob,
// brace expansion or leading tilde. 'ls', "ls", \ls and l"s" are all "ls".
func literal(w *syntax.Word) (string, bool) {
	return wordText(w, false)
}

// argText is literal for arguments, where a leading ~ (the home directory)
// is allowed and kept as it is: it cannot turn into an option.
func argText(w *syntax.Word) (string, bool) {
	return wordText(w, true)
}

func wordText(w *syntax.Word, tildeOK bool) (string, bool) {
	if w == nil {
		return "", false
	}
	var b strings.Builder
	var g globState
	for i, part := range w.Parts {
		switch p := part.(type) {
		case *syntax.Lit:
			if i == 0 && !tildeOK && strings.HasPrefix(p.Value, "~") {
				return "", false
			}
			if !g.unquoted(p.Value, &b) {
				return "", false
			}
		case *syntax.SglQuoted:
			if p.Dollar {
				return "", false // $'…' escapes: not decoded here
			}
			g.quoted(p.Value)
			b.WriteString(p.Value)
		case *syntax.DblQuoted:
			s, ok := dblQuotedText(p)
			if !ok {
				return "", false
			}
			g.quoted(s)
			b.WriteString(s)
		default:
			return "", false
		}
	}
	return b.String(), !g.dynamic
}

// dblQuotedText is the value of a double-quoted part holding no expansion.
func dblQuotedText(p *syntax.DblQuoted) (string, bool) {
	if p.Dollar {
		return "", false // $"…" is translated at run time
	}
	var b strings.Builder
	for _, q := range p.Parts {
		l, ok := q.(*syntax.Lit)
		if !ok {
			return "", false
		}
		s := l.Value
		for i := 0; i < len(s); i++ {
			if s[i] == '\\' && i+1 < len(s) && strings.IndexByte("$`\"\\\n", s[i+1]) >= 0 {
				i++
				if s[i] == '\n' {
					continue
				}
			}
			b.WriteByte(s[i])
		}
	}
	return b.String(), true
}

// globState tracks unquoted characters that make the shell expand a word:
// * and ?, a [ closed later by ], and braces holding a comma or "..".
type globState struct {
	bracket, brace, braceList bool
	dynamic                   bool
	prev                      byte
}

// unquoted appends the value of unquoted text to b, removing backslashes.
func (g *globState) unquoted(s string, b *strings.Builder) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '\\' {
			if i+1 < len(s) {
				i++
				if s[i] != '\n' {
					b.WriteByte(s[i])
				}
			}
			g.prev = 0
			continue
		}
		g.special(c)
		b.WriteByte(c)
		g.prev = c
	}
	return !g.dynamic
}

func (g *globState) special(c byte) {
	switch c {
	case '*', '?':
		g.dynamic = true
	case '[':
		g.bracket = true
	case ']':
		g.dynamic = g.dynamic || g.bracket
	case '{':
		g.brace = true
	case ',':
		g.braceList = g.braceList || g.brace
	case '.':
		g.braceList = g.braceList || (g.brace && g.prev == '.')
	case '}':
		g.dynamic = g.dynamic || g.braceList
	}
}

// quoted notes quoted text: a ] in it still closes an unquoted [ for safety.
func (g *globState) quoted(s string) {
	if g.bracket && strings.Contains(s, "]") {
		g.dynamic = true
	}
	g.prev = 0
}

// staticArgs is the text of every argument, or ok false when one of them is
// not plain text (a $var or a glob could carry any option).
func staticArgs(words []*syntax.Word) (args []string, ok bool) {
	args = make([]string, 0, len(words))
	for _, w := range words {
		s, ok := argText(w)
		if !ok {
			return nil, false
		}
		args = append(args, s)
	}
	return args, true
}

// show prints a node as shell source on one line, shortened for a message.
func show(n syntax.Node) string {
	var b strings.Builder
	if err := syntax.NewPrinter(syntax.SingleLine(true)).Print(&b, n); err != nil {
		return "?"
	}
	return shorten(b.String())
}

// shorten keeps messages readable: one line, at most 60 characters.
func shorten(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if utf8.RuneCountInString(s) <= 60 {
		return s
	}
	r := []rune(s)
	return string(r[:57]) + "…"
}

// longOpt reports whether arg is --name, --name=…, or an abbreviation of one
// of names (getopt_long and git accept unambiguous prefixes).
func longOpt(arg string, names ...string) bool {
	opt, ok := strings.CutPrefix(arg, "--")
	if !ok || opt == "" {
		return false
	}
	opt, _, _ = strings.Cut(opt, "=")
	for _, n := range names {
		if strings.HasPrefix(n, opt) {
			return true
		}
	}
	return false
}

// shortOpt reports whether arg is a bundle of short options (-xvf) holding any
// of letters. A value glued to an option may match too: that only asks more.
func shortOpt(arg, letters string) bool {
	return len(arg) > 1 && arg[0] == '-' && arg[1] != '-' && strings.ContainsAny(arg[1:], letters)
}

// firstOperand is the index of the first argument that is not an option.
func firstOperand(args []string) int {
	for i, a := range args {
		if !strings.HasPrefix(a, "-") {
			return i
		}
	}
	return -1
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
