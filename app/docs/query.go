package docs

import (
	"strings"
	"unicode"
)

// maxTerms bounds the terms of a search: a question is a few words, a pasted page
// is not a query.
const maxTerms = 32

// matchExpr is a safe FTS5 expression for free text: every word (what FTS5's
// unicode61 tokenizer would make of it, so "KEYWORD-137" is the phrase "KEYWORD
// 137") quoted, stop words left out, any of them matching (bm25 ranks the chunks
// that hold more and rarer ones first). Empty when nothing is left to look for.
func matchExpr(query string) string {
	var terms []string
	seen := map[string]bool{}
	for _, field := range strings.Fields(strings.ToValidUTF8(query, " ")) {
		words := strings.FieldsFunc(field, func(r rune) bool { return !isWordRune(r) })
		if len(words) == 0 || len(words) == 1 && stopWord(words[0]) {
			continue
		}
		term := `"` + strings.Join(words, " ") + `"` // words hold no quote
		if key := strings.ToLower(term); !seen[key] {
			seen[key] = true
			terms = append(terms, term)
		}
		if len(terms) == maxTerms {
			break
		}
	}
	return strings.Join(terms, " OR ")
}

// isWordRune is what the unicode61 tokenizer keeps in a token.
func isWordRune(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsNumber(r) || unicode.Is(unicode.Co, r) || unicode.Is(unicode.Mn, r)
}

// stopWord: a word too common to say what a question is about (English), or one
// letter.
func stopWord(w string) bool {
	w = strings.ToLower(w)
	return len([]rune(w)) == 1 && !unicode.IsNumber([]rune(w)[0]) || stopWords[w]
}

var stopWords = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`a about above after again all also am an and any are as at be because been
		before being below between both but by can could did do does doing down during each few for from
		further had has have having he her here hers him his how i if in into is it its itself just me more
		most my no nor not now of off on once only or other our ours out over own same she should so some
		such than that the their theirs them then there these they this those through to too under until
		up very was we were what when where which while who whom why will with would you your yours
		please tell show find give say says said document file pdf page pages`) {
		m[w] = true
	}
	return m
}()
