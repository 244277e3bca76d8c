package speech

import "strings"

// Spoken is text as it is said, whole: its clauses' words joined by spaces (markdown
// gone; code blocks, tables, links and images named, not read). It is what
// POST /api/speech sends to the speech server, so a client may send a reply's
// markdown as it is.
func Spoken(text string) string {
	var s Splitter
	clauses := append(s.Feed(text), s.Flush()...)
	words := make([]string, len(clauses))
	for i, c := range clauses {
		words[i] = c.Text
	}
	return strings.Join(words, " ")
}
