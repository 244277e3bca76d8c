package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"time"
)

// UsageRecord is one model call group Wisp made (a run, a summary, a title, a /v1
// request): the tokens its provider reported and what they cost.
type UsageRecord struct {
	ID    string
	At    time.Time
	Day   string // the local date of At, "2026-11-28"
	Model string
	// Provider is the kind of provider that answered: openai, anthropic or ollama.
	Provider string
	Kind     string // chat, summary, title or v1
	// ConversationID, RunID and MessageID say what the call was for; "" for none. A
	// conversation that no longer exists is recorded as none.
	ConversationID, RunID, MessageID string
	Tokens                           Tokens
	CostUSD                          *float64 // nil: the model has no price
}

// Tokens are the token counts of one or more model calls. Input is the whole prompt:
// the cache reads and writes are part of it.
type Tokens struct {
	Input, Output, CacheRead, CacheWrite int64
}

// UsageTotals sum model calls: their tokens, the cost of those with a price, how many
// had none, and how many there were.
type UsageTotals struct {
	Tokens   Tokens
	CostUSD  float64
	Unpriced int
	Calls    int
}

// DayUsage is the usage of one model on one local day.
type DayUsage struct {
	Day, Model string
	UsageTotals
}

// MessageUsage is the usage recorded for one message (an assistant reply): the model
// of its newest record, the sum of its records, and their cost, nil when any of them
// had no price.
type MessageUsage struct {
	MessageID, Model string
	Tokens           Tokens
	CostUSD          *float64
}

// AddUsage saves a usage record. A conversation id that names no conversation (it
// was deleted meanwhile) is saved as none. A chat record names its run's reply, and
// the run's earlier chat records take that reply too: a run paused across a restart
// was recorded when Wisp closed, before its reply had the id it ends with.
func (s *Store) AddUsage(ctx context.Context, u UsageRecord) error {
	if err := requireTime("usage time", u.At); err != nil {
		return err
	}
	err := s.InTx(ctx, func(tx *Tx) error {
		_, err := tx.tx.ExecContext(ctx, `INSERT INTO usage (id, at, day, model, provider, kind, conversation_id, run_id, message_id,
			input_tokens, output_tokens, cache_read_tokens, cache_write_tokens, cost_usd)
			VALUES (?, ?, ?, ?, ?, ?, (SELECT id FROM conversations WHERE id = ?), ?, ?, ?, ?, ?, ?, ?)`,
			u.ID, u.At.UnixMilli(), u.Day, u.Model, u.Provider, u.Kind, u.ConversationID, nullString(u.RunID), nullString(u.MessageID),
			u.Tokens.Input, u.Tokens.Output, u.Tokens.CacheRead, u.Tokens.CacheWrite, u.CostUSD)
		if err != nil || u.Kind != "chat" || u.RunID == "" || u.MessageID == "" {
			return err
		}
		_, err = tx.tx.ExecContext(ctx, `UPDATE usage SET message_id = ?1
			WHERE run_id = ?2 AND kind = 'chat' AND message_id IS NOT ?1`, u.MessageID, u.RunID)
		return err
	})
	if err != nil {
		return fmt.Errorf("add usage %s: %w", u.ID, err)
	}
	return nil
}

func nullString(s string) sql.NullString { return sql.NullString{String: s, Valid: s != ""} }

// totalsColumns sum a group of usage rows into what scanTotals reads.
const totalsColumns = `COALESCE(SUM(input_tokens), 0), COALESCE(SUM(output_tokens), 0), COALESCE(SUM(cache_read_tokens), 0),
	COALESCE(SUM(cache_write_tokens), 0), COALESCE(SUM(cost_usd), 0), COUNT(*) - COUNT(cost_usd), COUNT(*)`

func totalsDest(t *UsageTotals) []any {
	return []any{&t.Tokens.Input, &t.Tokens.Output, &t.Tokens.CacheRead, &t.Tokens.CacheWrite, &t.CostUSD, &t.Unpriced, &t.Calls}
}

// ConversationUsage sums the usage recorded for a conversation (zero when none).
func (s *Store) ConversationUsage(ctx context.Context, conversationID string) (UsageTotals, error) {
	var t UsageTotals
	err := s.db.QueryRowContext(ctx, "SELECT "+totalsColumns+" FROM usage WHERE conversation_id = ?", conversationID).
		Scan(totalsDest(&t)...)
	if err != nil {
		return UsageTotals{}, fmt.Errorf("usage of conversation %s: %w", conversationID, err)
	}
	return t, nil
}

// UsageSince sums the usage of every local day from since on ("2026-11-01"), by day
// and model: the newest day first, then by model.
func (s *Store) UsageSince(ctx context.Context, since string) ([]DayUsage, error) {
	return queryAll(ctx, s.db, "usage by day", func(r scanner) (DayUsage, error) {
		var d DayUsage
		err := r.Scan(append([]any{&d.Day, &d.Model}, totalsDest(&d.UsageTotals)...)...)
		return d, err
	}, "SELECT day, model, "+totalsColumns+" FROM usage WHERE day >= ? GROUP BY day, model ORDER BY day DESC, model", since)
}

// MessagesUsage is the usage recorded for each of messageIDs that has any, by id: one
// query for a page of messages.
func (s *Store) MessagesUsage(ctx context.Context, messageIDs []string) (map[string]MessageUsage, error) {
	out := map[string]MessageUsage{}
	if len(messageIDs) == 0 {
		return out, nil
	}
	list, err := json.Marshal(messageIDs)
	if err != nil {
		return nil, fmt.Errorf("usage of messages: %w", err)
	}
	// The model is the newest record's: SQLite takes a bare column from the row MAX picks.
	rows, err := queryAll(ctx, s.db, "usage of messages", func(r scanner) (MessageUsage, error) {
		var m MessageUsage
		var at, unpriced int64
		var cost float64
		err := r.Scan(&m.MessageID, &m.Model, &at, &m.Tokens.Input, &m.Tokens.Output, &m.Tokens.CacheRead, &m.Tokens.CacheWrite,
			&cost, &unpriced)
		if unpriced == 0 {
			m.CostUSD = &cost
		}
		return m, err
	}, `SELECT message_id, model, MAX(at), SUM(input_tokens), SUM(output_tokens), SUM(cache_read_tokens), SUM(cache_write_tokens),
		COALESCE(SUM(cost_usd), 0), COUNT(*) - COUNT(cost_usd)
		FROM usage WHERE message_id IN (SELECT value FROM json_each(?)) GROUP BY message_id`, string(list))
	if err != nil {
		return nil, err
	}
	for _, m := range rows {
		out[m.MessageID] = m
	}
	return out, nil
}
