package shellgrant

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// redirect asks for redirections that write a file. Reading (<), here-documents
// and here-strings are fine (their bodies are walked), as are writes to
// /dev/null and duplications of a descriptor (2>&1, >&-).
func (an *analyzer) redirect(r *syntax.Redirect) {
	if r.N != nil && strings.HasPrefix(r.N.Value, "{") {
		an.ask("`%s…`: a {name} redirection assigns a variable", r.N.Value)
		return
	}
	switch r.Op {
	case syntax.Hdoc, syntax.DashHdoc:
		an.heredoc(r)
		return
	case syntax.RdrIn, syntax.WordHdoc:
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
