package shellgrant

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// redirect asks for redirections that write a file. Reading (<), here-documents
// and here-strings are fine (their bodies are walked), as are writes to
// /dev/null and duplications of a descriptor (2>&1, >&-). Reading from
// /dev/tcp/HOST/PORT opens a network connection.
func (an *analyzer) redirect(r *syntax.Redirect) {
	if r.N != nil && strings.HasPrefix(r.N.Value, "{") {
		an.ask("`%s…`: a {name} redirection assigns a variable", r.N.Value)
		return
	}
	switch r.Op {
	case syntax.Hdoc, syntax.DashHdoc:
		an.heredoc(r)
		return
	case syntax.WordHdoc:
		return
	case syntax.RdrIn:
		an.readFrom(r.Word)
		return
	case syntax.DplIn, syntax.DplOut:
		if target, ok := literal(r.Word); ok && (isFD(target) || target == "/dev/null") {
			return
		}
		// bash reads >&file as &>file: a write.
	default:
		if target, ok := literal(r.Word); ok && target == "/dev/null" {
			return
		}
	}
	an.ask("`%s %s` writes a file", r.Op, show(r.Word))
}

// isFD reports whether a duplication target names a descriptor: 1, 2-, -.
func isFD(s string) bool {
	s = strings.TrimSuffix(s, "-")
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// readFrom asks when < could read /dev/tcp/… or /dev/udp/…, which Bash turns
// into a network connection (and a DNS query that can carry data): the
// target names one, or starts with an expansion that could.
func (an *analyzer) readFrom(w *syntax.Word) {
	prefix := leadingText(w)
	for _, dev := range []string{"/dev/tcp/", "/dev/udp/"} {
		if strings.HasPrefix(prefix, dev) || strings.HasPrefix(dev, prefix) {
			an.ask("`< %s` could open a network connection (/dev/tcp/…)", show(w))
			return
		}
	}
}

// leadingText is the plain text a word starts with, up to its first expansion.
func leadingText(w *syntax.Word) string {
	var b strings.Builder
	for _, part := range w.Parts {
		switch p := part.(type) {
		case *syntax.Lit:
			if strings.HasPrefix(p.Value, "~") && b.Len() == 0 {
				return "~" // the home folder, not /dev
			}
			b.WriteString(strings.ReplaceAll(p.Value, "\\", ""))
		case *syntax.SglQuoted:
			if p.Dollar {
				return b.String()
			}
			b.WriteString(p.Value)
		default:
			return b.String()
		}
	}
	return b.String()
}
