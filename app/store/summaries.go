package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"time"
)

// Summary statuses: a summary streams until it is done or failed; the user may undo
// a done one (the model's context then goes back to the raw messages).
const (
	SummaryStreaming = "streaming"
	SummaryDone      = "done"
	SummaryFailed    = "failed"
	SummaryUndone    = "undone"
)

// Summary stands for the messages of a branch from its first through ThroughID in
// the model's context. The messages themselves stay as they are.
type Summary struct {
	ID, ConversationID, ThroughID string
	// Covers is how many messages it stands for; FromAt and ThroughAt the times of
	// the first and the last of them.
	Covers            int
	FromAt, ThroughAt time.Time
	Text              string
	Status, Error     string
	RunID             string
	Tokens            int // of Text, by the counter of the model that made it
	// Model and the usage of the call that made it.
	Model                             string
	InputTokens, OutputTokens         int
	CacheReadTokens, CacheWriteTokens int
	CreatedAt                         time.Time
}

const summaryColumns = `id, conversation_id, through_id, covers, from_at, through_at, text, status, error,
	run_id, tokens, model, input_tokens, output_tokens, cache_read_tokens, cache_write_tokens, created_at`

// CreateSummary saves a new summary (usually streaming). ErrNotFound if its
// conversation does not exist.
func (s *Store) CreateSummary(ctx context.Context, m Summary) error {
	_, err := s.db.ExecContext(ctx, `INSERT INTO summaries (`+summaryColumns+`)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		m.ID, m.ConversationID, m.ThroughID, m.Covers, m.FromAt.UnixMilli(), m.ThroughAt.UnixMilli(), m.Text,
		m.Status, m.Error, m.RunID, m.Tokens, m.Model, m.InputTokens, m.OutputTokens, m.CacheReadTokens,
		m.CacheWriteTokens, m.CreatedAt.UnixMilli())
	if err != nil {
		return fmt.Errorf("create summary %s: %w", m.ID, notFound(err))
	}
	return nil
}

// FinishSummary records how a summary ended: its text, status, error, token count
// and the usage of its call.
func (s *Store) FinishSummary(ctx context.Context, m Summary) error {
	res, err := s.db.ExecContext(ctx, `UPDATE summaries SET text = ?2, status = ?3, error = ?4, tokens = ?5,
		model = ?6, input_tokens = ?7, output_tokens = ?8, cache_read_tokens = ?9, cache_write_tokens = ?10
		WHERE id = ?1`, m.ID, m.Text, m.Status, m.Error, m.Tokens, m.Model, m.InputTokens, m.OutputTokens,
		m.CacheReadTokens, m.CacheWriteTokens)
	if err != nil {
		return fmt.Errorf("finish summary %s: %w", m.ID, err)
	}
	if err := mustAffect(res); err != nil {
		return fmt.Errorf("finish summary %s: %w", m.ID, err)
	}
	return nil
}

// SetSummaryStatus changes a summary's status (an undo).
func (s *Store) SetSummaryStatus(ctx context.Context, id, status string) error {
	res, err := s.db.ExecContext(ctx, "UPDATE summaries SET status = ? WHERE id = ?", status, id)
	if err != nil {
		return fmt.Errorf("set summary %s %s: %w", id, status, err)
	}
	if err := mustAffect(res); err != nil {
		return fmt.Errorf("set summary %s %s: %w", id, status, err)
	}
	return nil
}

// GetSummary reads one summary of a conversation; ErrNotFound if there is none.
func (s *Store) GetSummary(ctx context.Context, conversationID, id string) (Summary, error) {
	m, err := scanSummary(s.db.QueryRowContext(ctx, "SELECT "+summaryColumns+
		" FROM summaries WHERE id = ? AND conversation_id = ?", id, conversationID))
	if err != nil {
		return Summary{}, fmt.Errorf("summary %s: %w", id, notFound(err))
	}
	return m, nil
}

// Summaries are a conversation's summaries with one of the statuses (all when none
// is given), oldest first.
func (s *Store) Summaries(ctx context.Context, conversationID string, statuses ...string) ([]Summary, error) {
	q := "SELECT " + summaryColumns + " FROM summaries WHERE conversation_id = ?"
	args := []any{conversationID}
	if len(statuses) > 0 {
		q += " AND status IN (SELECT value FROM json_each(?))"
		args = append(args, jsonList(statuses))
	}
	return queryAll(ctx, s.db, "load summaries", scanSummary, q+" ORDER BY created_at, rowid", args...)
}

// SummariesThrough are the summaries (but undone ones) whose last message is one of
// ids, oldest first: those a page of messages shows.
func (s *Store) SummariesThrough(ctx context.Context, conversationID string, ids []string) ([]Summary, error) {
	if len(ids) == 0 {
		return []Summary{}, nil
	}
	return queryAll(ctx, s.db, "load summaries", scanSummary, "SELECT "+summaryColumns+
		` FROM summaries WHERE conversation_id = ? AND status != 'undone'
		AND through_id IN (SELECT value FROM json_each(?)) ORDER BY created_at, rowid`,
		conversationID, jsonList(ids))
}

// FailStreamingSummaries marks failed every summary left streaming by a process that
// stopped, and returns them.
func (s *Store) FailStreamingSummaries(ctx context.Context, why string) ([]Summary, error) {
	left, err := queryAll(ctx, s.db, "load streaming summaries", scanSummary,
		"SELECT "+summaryColumns+" FROM summaries WHERE status = 'streaming'")
	if err != nil {
		return nil, err
	}
	if _, err := s.db.ExecContext(ctx, "UPDATE summaries SET status = 'failed', error = ? WHERE status = 'streaming'", why); err != nil {
		return nil, fmt.Errorf("fail streaming summaries: %w", err)
	}
	for i := range left {
		left[i].Status, left[i].Error = SummaryFailed, why
	}
	return left, nil
}

// SetMessageTokens saves the token counts of messages (by id) and the counter that
// made them.
func (s *Store) SetMessageTokens(ctx context.Context, counter string, counts map[string]int) error {
	if len(counts) == 0 {
		return nil
	}
	return s.InTx(ctx, func(tx *Tx) error {
		stmt, err := tx.tx.PrepareContext(ctx, "UPDATE messages SET tokens = ?, tokens_by = ? WHERE id = ?")
		if err != nil {
			return fmt.Errorf("save token counts: %w", err)
		}
		defer stmt.Close()
		for id, n := range counts {
			if _, err := stmt.ExecContext(ctx, n, counter, id); err != nil {
				return fmt.Errorf("save token counts: %w", err)
			}
		}
		return nil
	})
}

// TokenCount is a message's saved token count and the counter that made it.
type TokenCount struct {
	Tokens  int
	Counter string
}

// MessageTokens reads the saved token counts of messages by id (those never counted
// are absent).
func (s *Store) MessageTokens(ctx context.Context, ids []string) (map[string]TokenCount, error) {
	out := make(map[string]TokenCount, len(ids))
	if len(ids) == 0 {
		return out, nil
	}
	rows, err := s.db.QueryContext(ctx, `SELECT id, tokens, tokens_by FROM messages
		WHERE id IN (SELECT value FROM json_each(?)) AND tokens IS NOT NULL`, jsonList(ids))
	if err != nil {
		return nil, fmt.Errorf("load token counts: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var id string
		var n int
		var by sql.NullString
		if err := rows.Scan(&id, &n, &by); err != nil {
			return nil, fmt.Errorf("load token counts: %w", err)
		}
		out[id] = TokenCount{Tokens: n, Counter: by.String}
	}
	return out, rows.Err()
}

func scanSummary(r scanner) (Summary, error) {
	var m Summary
	var from, through, created int64
	err := r.Scan(&m.ID, &m.ConversationID, &m.ThroughID, &m.Covers, &from, &through, &m.Text, &m.Status,
		&m.Error, &m.RunID, &m.Tokens, &m.Model, &m.InputTokens, &m.OutputTokens, &m.CacheReadTokens,
		&m.CacheWriteTokens, &created)
	if err != nil {
		return Summary{}, err
	}
	m.FromAt, m.ThroughAt, m.CreatedAt = time.UnixMilli(from), time.UnixMilli(through), time.UnixMilli(created)
	return m, nil
}

// jsonList is a list of strings as a JSON array for json_each.
func jsonList(v []string) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// CountedMessage is a message of a branch as the model's context needs it: its
// role, text and place, and its saved token count (Counter "" when never counted).
type CountedMessage struct {
	Message
	Tokens  int
	Counter string
}

// PathCounted is Path for context assembly: the last limit messages of the branch
// that ends at messageID, oldest first, with only the columns the model reads and
// their saved token counts, in one statement.
func (s *Store) PathCounted(ctx context.Context, conversationID, messageID string, limit int) ([]CountedMessage, error) {
	return queryAll(ctx, s.db, "load a branch", scanCounted, `WITH RECURSIVE up(n, parent, k) AS (
		SELECT n, parent_id, 1 FROM messages WHERE id = ?3 AND conversation_id = ?1
		UNION ALL
		SELECT m.n, m.parent_id, up.k + 1 FROM up CROSS JOIN messages m ON m.id = up.parent
		WHERE m.conversation_id = ?1 AND (?2 < 0 OR up.k < ?2)
	)
	SELECT id, role, text, created_at, parent_id, depth, tokens, tokens_by FROM messages
	WHERE n IN (SELECT n FROM up) ORDER BY depth`, conversationID, sqlLimit(limit), messageID)
}

func scanCounted(r scanner) (CountedMessage, error) {
	var m CountedMessage
	var created int64
	var parent, by sql.NullString
	var tokens sql.NullInt64
	if err := r.Scan(&m.ID, &m.Role, &m.Text, &created, &parent, &m.Depth, &tokens, &by); err != nil {
		return CountedMessage{}, err
	}
	m.ParentID, m.CreatedAt = parent.String, time.UnixMilli(created)
	m.Tokens, m.Counter = int(tokens.Int64), by.String
	return m, nil
}
