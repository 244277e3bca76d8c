package shellgrant

import (
	"regexp"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Shapes where Bash and the parser are known to read a command line
// differently, or could: they always ask, whatever the command.

// span is a byte range of the command line.
type span struct{ from, to int }

// continuationAsk is the reason for a backslash at the end of a line outside
// single quotes. Bash removes it with the newline before it reads anything
// else, so it joins lines the parser keeps apart: in a comment (# x \⏎ rm),
// in a here-document's end marker (EO\⏎F), in a here-document body.
const continuationAsk = "a backslash at the end of a line (a line continuation) outside single quotes: Bash and the checker can read it differently; write the command on one line"

// checkContinuations allows a backslash-newline only inside single quotes
// that are not part of a here-document.
func (an *analyzer) checkContinuations(s string) string {
	if !strings.Contains(s, "\\\n") {
		return ""
	}
	quoted := coverage(len(s), an.quoted)
	heredoc := coverage(len(s), an.heredocs)
	for i := 0; i+1 < len(s); i++ {
		if s[i] == '\\' && s[i+1] == '\n' && (quoted[i] == 0 || heredoc[i] > 0) {
			return continuationAsk
		}
	}
	return ""
}

// coverage is, for every byte, how many of spans hold it.
func coverage(n int, spans []span) []int32 {
	c := make([]int32, n+1)
	for _, sp := range spans {
		if sp.from < 0 || sp.to > n || sp.from >= sp.to {
			continue
		}
		c[sp.from]++
		c[sp.to]--
	}
	for i := 1; i <= n; i++ {
		c[i] += c[i-1]
	}
	return c
}

// heredocMarker is the end marker of a here-document this package accepts:
// plain letters, digits and a few marks, so that it ends where Bash ends it.
var heredocMarker = regexp.MustCompile(`^[A-Za-z0-9_.+-]+$`)

// heredoc checks a here-document's end marker and notes where its body is.
func (an *analyzer) heredoc(r *syntax.Redirect) {
	if r.Hdoc != nil {
		an.heredocs = append(an.heredocs, span{int(r.Hdoc.Pos().Offset()), int(r.Hdoc.End().Offset())})
	}
	marker, ok := markerText(r.Word)
	if !ok || !heredocMarker.MatchString(marker) {
		an.ask("the here-document end marker `%s` is not plain letters and digits: Bash and the checker could end the here-document at different lines", show(r.Word))
	}
}

// markerText is a here-document marker without its quotes.
func markerText(w *syntax.Word) (string, bool) {
	if w == nil {
		return "", false
	}
	var b strings.Builder
	for _, part := range w.Parts {
		switch p := part.(type) {
		case *syntax.Lit:
			b.WriteString(strings.ReplaceAll(p.Value, "\\", ""))
		case *syntax.SglQuoted:
			if p.Dollar {
				return "", false
			}
			b.WriteString(p.Value)
		case *syntax.DblQuoted:
			s, ok := dblQuotedText(p)
			if !ok {
				return "", false
			}
			b.WriteString(s)
		default:
			return "", false
		}
	}
	return b.String(), true
}
