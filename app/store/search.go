package store

import (
	"context"
	"fmt"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// SearchKey is a hit's place in the ranking: its bm25 score (lower is better) and,
// among equal scores, its message's row number. Hits come in increasing key order,
// so the last key of a page is where the next page starts.
type SearchKey struct {
	Rank float64
	N    int64
}

// Span is a highlighted stretch of a snippet: bytes [Start, End) of its text.
type Span struct{ Start, End int }

// SearchHit is one message that matches a search.
type SearchHit struct {
	Key                                                SearchKey
	MessageID, ConversationID, ConversationTitle, Role string
	CreatedAt                                          time.Time
	// Snippet is plain text around the matches (message text is untrusted: it is
	// never markup); Marks are the matched terms in it.
	Snippet string
	Marks   []Span
}

// Snippet markers: private-use characters the search inserts around each match and
// the parser takes out again. A message that itself holds one gets no highlights.
const (
	markOpen    = '\uE000'
	markClose   = '\uE001'
	snippetSQL  = "snippet(messages_fts, 0, char(57344), char(57345), '…', 16)"
	hasMarksSQL = "(instr(m.text, char(57344)) > 0 OR instr(m.text, char(57345)) > 0)"
)

// MatchExpr turns what a user typed into an FTS5 query: each whitespace-separated
// word becomes a quoted string (a phrase of its tokens), all of which must match, and
// the last word, when the input does not end in a space, matches as a prefix
// (type-ahead). Quoting means nothing typed is FTS5 syntax: quotes, *, ^, -, :,
// NEAR, AND, OR, NOT and column names are all just text. Words without a letter or a
// digit are dropped; "" means there is nothing to search for.
func MatchExpr(input string) string {
	input = strings.ToValidUTF8(input, " ")
	words := strings.FieldsFunc(input, isSeparator)
	prefix := len(words) > 0 && !isSeparator(lastRune(input))
	terms := make([]string, 0, len(words))
	for i, w := range words {
		if !strings.ContainsFunc(w, isWordRune) {
			continue
		}
		term := `"` + strings.ReplaceAll(w, `"`, `""`) + `"`
		if prefix && i == len(words)-1 {
			term += "*"
		}
		terms = append(terms, term)
	}
	return strings.Join(terms, " ")
}

// isSeparator splits words: spaces, and control characters (a NUL would end the
// FTS5 string early).
func isSeparator(r rune) bool { return unicode.IsSpace(r) || unicode.IsControl(r) }

// isWordRune is what the unicode61 tokenizer keeps: letters, digits and private use.
func isWordRune(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsNumber(r) || unicode.Is(unicode.Co, r)
}

func lastRune(s string) rune {
	r, _ := utf8.DecodeLastRuneInString(s)
	return r
}

// searchPage is the ranked page of matches: the best limit after the key, if any.
// FTS5 orders by rank itself ("ORDER BY rank" is the one order it takes over): it
// scores every match in rowid order and sorts them with SQLite's sorter, which is
// stable, so equal scores come in rowid order and the key (rank, n) orders every
// hit (TestSearchPagesByKey holds this, spilled sorts included). Rows come out one
// by one from there, so only the page's rows are joined and get a snippet.
const searchPage = `SELECT messages_fts.rowid, messages_fts.rank, m.id, m.conversation_id, c.title, m.role, m.created_at,
	` + snippetSQL + `, ` + hasMarksSQL + `
FROM messages_fts
JOIN messages m ON m.n = messages_fts.rowid
JOIN conversations c ON c.id = m.conversation_id
WHERE messages_fts MATCH ?1 %s
ORDER BY messages_fts.rank
LIMIT ?2`

const afterKey = "AND (messages_fts.rank > ?3 OR (messages_fts.rank = ?3 AND messages_fts.rowid > ?4))"

// SearchMessages returns the best limit messages matching the FTS5 query match
// (MatchExpr's), ranked by bm25, starting after the key after (nil: from the top).
func (s *Store) SearchMessages(ctx context.Context, match string, after *SearchKey, limit int) ([]SearchHit, error) {
	query, args := fmt.Sprintf(searchPage, ""), []any{match, limit}
	if after != nil {
		query, args = fmt.Sprintf(searchPage, afterKey), append(args, after.Rank, after.N)
	}
	return queryAll(ctx, s.db, "search messages", scanHit, query, args...)
}

func scanHit(r scanner) (SearchHit, error) {
	var h SearchHit
	var created int64
	var snippet string
	var hasMarks bool
	if err := r.Scan(&h.Key.N, &h.Key.Rank, &h.MessageID, &h.ConversationID, &h.ConversationTitle,
		&h.Role, &created, &snippet, &hasMarks); err != nil {
		return SearchHit{}, err
	}
	h.CreatedAt = time.UnixMilli(created)
	h.Snippet, h.Marks = parseSnippet(snippet, !hasMarks)
	return h, nil
}

// parseSnippet takes the markers out of a snippet and returns its text with the
// stretches they enclosed. With trust false (the text had marker characters of its
// own) it only takes them out.
func parseSnippet(s string, trust bool) (string, []Span) {
	var b strings.Builder
	b.Grow(len(s))
	var marks []Span
	open := -1
	for _, r := range s {
		switch {
		case r == markOpen && trust && open < 0:
			open = b.Len()
		case r == markClose && trust && open >= 0:
			if b.Len() > open {
				marks = append(marks, Span{open, b.Len()})
			}
			open = -1
		case r == markOpen || r == markClose:
		default:
			b.WriteRune(r)
		}
	}
	return b.String(), marks
}
