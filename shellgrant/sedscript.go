package shellgrant

import "strings"

// sedScript reads a sed script and returns why it is not covered: it runs
// commands (e, s///e), writes files (w, W, s///w), or holds something this
// small reader does not know. "" when it only edits text.
func sedScript(s string) string {
	p := sedParser{s: s}
	for {
		p.skip(" \t\n;")
		if p.done() {
			return ""
		}
		if p.peek() == '#' {
			p.toNewline() // a comment ends at the newline, backslash or not
			continue
		}
		if !p.addresses() {
			return "cannot be read here"
		}
		p.skip(" \t!")
		if p.done() {
			return "cannot be read here"
		}
		if reason := p.command(); reason != "" {
			return reason
		}
	}
}

type sedParser struct {
	s string
	i int
}

func (p *sedParser) done() bool { return p.i >= len(p.s) }
func (p *sedParser) peek() byte { return p.s[p.i] }

func (p *sedParser) skip(set string) {
	for !p.done() && strings.IndexByte(set, p.peek()) >= 0 {
		p.i++
	}
}

// toLineEnd skips to the end of the line, past backslash-escaped characters
// (a, i and c text goes on after "\" and a newline).
func (p *sedParser) toLineEnd() {
	for !p.done() && p.peek() != '\n' {
		if p.peek() == '\\' {
			p.i++
		}
		p.i++
	}
}

// toNewline skips to the end of the line, taking backslashes literally.
func (p *sedParser) toNewline() {
	for !p.done() && p.peek() != '\n' {
		p.i++
	}
}

// toCommandEnd skips a label or argument: up to ";", a newline or "}".
func (p *sedParser) toCommandEnd() {
	for !p.done() && strings.IndexByte(";\n}", p.peek()) < 0 {
		p.i++
	}
}

// addresses reads up to two addresses: 3, $, /re/, \cREc, 1~2, +3, ~4.
func (p *sedParser) addresses() bool {
	if !p.address() {
		return false
	}
	p.skip(" \t")
	if !p.done() && p.peek() == ',' {
		p.i++
		p.skip(" \t")
		return p.address()
	}
	return true
}

func (p *sedParser) address() bool {
	if p.done() {
		return true
	}
	switch c := p.peek(); {
	case c == '/':
		p.i++
		return p.delimited('/') && p.regexFlags()
	case c == '\\':
		p.i++
		if p.done() || p.peek() == '\n' || p.peek() == '\\' {
			return false
		}
		d := p.peek()
		p.i++
		return p.delimited(d) && p.regexFlags()
	case c == '$':
		p.i++
	case c >= '0' && c <= '9', c == '+', c == '~':
		p.i++
		p.skip("0123456789~")
	}
	return true
}

// regexFlags skips the I and M flags after an address regex.
func (p *sedParser) regexFlags() bool {
	p.skip("IM")
	return true
}

// delimited skips text up to an unescaped delimiter, which it consumes. A
// newline ends it unterminated, as in GNU sed.
func (p *sedParser) delimited(d byte) bool {
	for !p.done() {
		c := p.peek()
		p.i++
		switch {
		case c == '\\':
			if p.done() {
				return false
			}
			p.i++
		case c == d:
			return true
		case c == '\n':
			return false
		}
	}
	return false
}

// command reads one command and its arguments.
func (p *sedParser) command() string {
	c := p.peek()
	p.i++
	switch {
	case c == 'e':
		return "runs a command (e)"
	case c == 'w' || c == 'W':
		return "writes a file (" + string(c) + ")"
	case c == 's':
		return p.substitute()
	case c == 'y':
		if p.done() || p.peek() == '\\' || p.peek() == '\n' {
			return "cannot be read here"
		}
		d := p.peek()
		p.i++
		if !p.delimited(d) || !p.delimited(d) {
			return "cannot be read here"
		}
	case strings.IndexByte("aic", c) >= 0:
		p.toLineEnd()
	case strings.IndexByte("rR", c) >= 0:
		p.toNewline() // reads a file: fine; its name takes no escapes
	case strings.IndexByte(":btTvqQlL", c) >= 0:
		p.toCommandEnd()
	case strings.IndexByte("{}=dDgGhHnNpPxzF", c) >= 0:
	default:
		return "cannot be read here"
	}
	return ""
}

// substitute reads s/re/replacement/flags and asks for the e and w flags.
func (p *sedParser) substitute() string {
	if p.done() || p.peek() == '\\' || p.peek() == '\n' {
		return "cannot be read here"
	}
	d := p.peek()
	p.i++
	if !p.delimited(d) || !p.delimited(d) {
		return "cannot be read here"
	}
	for !p.done() {
		switch c := p.peek(); {
		case c == 'e':
			return "runs its result as a command (s///e)"
		case c == 'w':
			return "writes a file (s///w)"
		case strings.IndexByte("gpiImM0123456789", c) >= 0:
			p.i++
		case strings.IndexByte(" \t;\n}#", c) >= 0:
			return ""
		default:
			return "cannot be read here"
		}
	}
	return ""
}
