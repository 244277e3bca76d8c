package store

import (
	"context"
	"strings"
	"time"
)

// RecallHit is a message that matches a recall: where it is, its bm25 rank (lower is
// better) and a plain-text snippet around the matches.
type RecallHit struct {
	MessageID, ConversationID, ConversationTitle, Role string
	CreatedAt                                          time.Time
	Rank                                               float64
	Snippet                                            string
}

// RecallExpr turns what the agent asks to recall into an FTS5 query: each word a
// quoted string (nothing is FTS5 syntax), any of which may match (bm25 ranks the
// messages matching more of them, and rarer ones, first); at most maxWords words.
// "" means there is nothing to search for.
func RecallExpr(query string, maxWords int) string {
	query = strings.ToValidUTF8(query, " ")
	var terms []string
	for _, w := range strings.FieldsFunc(query, isSeparator) {
		if !strings.ContainsFunc(w, isWordRune) {
			continue
		}
		if len(terms) == maxWords {
			break
		}
		terms = append(terms, `"`+strings.ReplaceAll(w, `"`, `""`)+`"`)
	}
	return strings.Join(terms, " OR ")
}

// recallPage ranks the matches by bm25, leaving out the messages of one run: its
// user message and its reply (?2 = "" leaves out nothing).
const recallPage = `SELECT m.id, m.conversation_id, c.title, m.role, m.created_at, messages_fts.rank,
	snippet(messages_fts, 0, '', '', '…', 48)
FROM messages_fts
JOIN messages m ON m.n = messages_fts.rowid
JOIN conversations c ON c.id = m.conversation_id
WHERE messages_fts MATCH ?1
	AND (?2 = '' OR (m.run_id IS NOT ?2 AND m.id IS NOT (SELECT r.user_message_id FROM runs r WHERE r.id = ?2)))
ORDER BY messages_fts.rank
LIMIT ?3`

// RecallMessages returns the best limit messages of every conversation matching the
// FTS5 query match (RecallExpr's) by bm25, except the user message and the reply of
// the run exceptRun.
func (s *Store) RecallMessages(ctx context.Context, match, exceptRun string, limit int) ([]RecallHit, error) {
	return queryAll(ctx, s.db, "recall messages", scanRecallHit, recallPage, match, exceptRun, limit)
}

func scanRecallHit(r scanner) (RecallHit, error) {
	var h RecallHit
	var created int64
	if err := r.Scan(&h.MessageID, &h.ConversationID, &h.ConversationTitle, &h.Role, &created, &h.Rank, &h.Snippet); err != nil {
		return RecallHit{}, err
	}
	h.CreatedAt = time.UnixMilli(created)
	return h, nil
}
