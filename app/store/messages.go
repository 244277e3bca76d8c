package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"time"
)

// Message is one turn of a conversation as the model sees it: a user's text or an
// assistant's reply.
type Message struct {
	ID, ConversationID, Role, Text, Source, RunID, ClientMessageID string

	Segments        json.RawMessage // the reply's segments; nil when absent
	CallbackHistory []string        // nil when absent
	Metadata        json.RawMessage // nil when absent
	CreatedAt       time.Time
}

const messageColumns = "id, conversation_id, role, text, source, run_id, segments, callback_history, client_message_id, metadata, created_at"

// AddMessage appends a message to its conversation and moves the conversation's
// updated_at forward to the message's time, in one transaction; ErrNotFound if the
// conversation does not exist.
func (s *Store) AddMessage(ctx context.Context, m Message) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("add message: %w", err)
	}
	defer tx.Rollback()
	if err := addMessageTx(ctx, tx, m); err != nil {
		return err
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("add message %s: %w", m.ID, err)
	}
	return nil
}

func addMessageTx(ctx context.Context, tx *sql.Tx, m Message) error {
	args, err := messageArgs(m)
	if err != nil {
		return fmt.Errorf("add message %s: %w", m.ID, err)
	}
	if err := touchConversationTx(ctx, tx, m.ConversationID, m.CreatedAt); err != nil {
		return fmt.Errorf("add message %s: %w", m.ID, err)
	}
	if _, err := tx.ExecContext(ctx,
		"INSERT INTO messages ("+messageColumns+") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", args...); err != nil {
		return fmt.Errorf("add message %s: %w", m.ID, err)
	}
	return nil
}

func messageArgs(m Message) ([]any, error) {
	if err := requireTime("created at", m.CreatedAt); err != nil {
		return nil, err
	}
	segments, err := jsonColumn("segments", m.Segments)
	if err != nil {
		return nil, err
	}
	meta, err := jsonColumn("metadata", m.Metadata)
	if err != nil {
		return nil, err
	}
	var history any
	if m.CallbackHistory != nil {
		b, err := json.Marshal(m.CallbackHistory)
		if err != nil {
			return nil, fmt.Errorf("callback history: %w", err)
		}
		history = string(b)
	}
	return []any{m.ID, m.ConversationID, m.Role, m.Text, optText(m.Source), optText(m.RunID),
		segments, history, optText(m.ClientMessageID), meta, m.CreatedAt.UnixMilli()}, nil
}

// Messages returns a conversation's last limit messages, oldest first; limit <= 0
// returns them all. An unknown conversation has none.
func (s *Store) Messages(ctx context.Context, conversationID string, limit int) ([]Message, error) {
	return queryAll(ctx, s.db, "load messages", scanMessage,
		"SELECT "+messageColumns+" FROM (SELECT n, "+messageColumns+" FROM messages"+
			" WHERE conversation_id = ? ORDER BY n DESC LIMIT ?) ORDER BY n",
		conversationID, sqlLimit(limit))
}

// MessageCount is the number of messages in a conversation.
func (s *Store) MessageCount(ctx context.Context, conversationID string) (int, error) {
	var n int
	if err := s.db.QueryRowContext(ctx,
		"SELECT COUNT(*) FROM messages WHERE conversation_id = ?", conversationID).Scan(&n); err != nil {
		return 0, fmt.Errorf("count messages: %w", err)
	}
	return n, nil
}

// TruncateMessages cuts a conversation back to the message messageID: it deletes
// the messages after it (and it too when inclusive), the runs (with their events)
// started at or after its time, and the display messages created after its time,
// at its time when inclusive, or belonging to a deleted run. It returns how many
// messages it deleted; ErrNotFound if messageID is not in that conversation.
func (s *Store) TruncateMessages(ctx context.Context, conversationID, messageID string, inclusive bool) (int, error) {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return 0, fmt.Errorf("truncate messages: %w", err)
	}
	defer tx.Rollback()
	var n, at int64
	err = tx.QueryRowContext(ctx,
		"SELECT n, created_at FROM messages WHERE id = ? AND conversation_id = ?",
		messageID, conversationID).Scan(&n, &at)
	if err != nil {
		return 0, fmt.Errorf("truncate at message %s: %w", messageID, notFound(err))
	}
	if !inclusive {
		n++ // keep the message
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM display_messages WHERE conversation_id = ?1 AND (
			created_at > ?2 OR (?3 AND created_at = ?2)
			OR run_id IN (SELECT id FROM runs WHERE conversation_id = ?1 AND started_at >= ?2))`,
		conversationID, at, inclusive); err != nil {
		return 0, fmt.Errorf("truncate display messages: %w", err)
	}
	if _, err := tx.ExecContext(ctx,
		"DELETE FROM runs WHERE conversation_id = ? AND started_at >= ?", conversationID, at); err != nil {
		return 0, fmt.Errorf("truncate runs: %w", err)
	}
	res, err := tx.ExecContext(ctx,
		"DELETE FROM messages WHERE conversation_id = ? AND n >= ?", conversationID, n)
	if err != nil {
		return 0, fmt.Errorf("truncate messages: %w", err)
	}
	deleted, err := res.RowsAffected()
	if err != nil {
		return 0, fmt.Errorf("truncate messages: %w", err)
	}
	if err := tx.Commit(); err != nil {
		return 0, fmt.Errorf("truncate messages: %w", err)
	}
	return int(deleted), nil
}

func scanMessage(r scanner) (Message, error) {
	var m Message
	var source, runID, clientID sql.NullString
	var segments, history, meta []byte
	var created int64
	if err := r.Scan(&m.ID, &m.ConversationID, &m.Role, &m.Text, &source, &runID,
		&segments, &history, &clientID, &meta, &created); err != nil {
		return Message{}, err
	}
	if history != nil {
		if err := json.Unmarshal(history, &m.CallbackHistory); err != nil {
			return Message{}, fmt.Errorf("message %s callback history: %w", m.ID, err)
		}
	}
	m.Source, m.RunID, m.ClientMessageID = source.String, runID.String, clientID.String
	m.Segments, m.Metadata = segments, meta
	m.CreatedAt = time.UnixMilli(created)
	return m, nil
}

// sqlLimit maps "no limit" (limit <= 0) to SQLite's LIMIT -1.
func sqlLimit(limit int) int {
	if limit <= 0 {
		return -1
	}
	return limit
}

// LastUserMessageAt is when the user last wrote, in any conversation; zero if never.
func (s *Store) LastUserMessageAt(ctx context.Context) (time.Time, error) {
	var ms sql.NullInt64
	if err := s.db.QueryRowContext(ctx,
		"SELECT MAX(created_at) FROM messages WHERE role = 'user'").Scan(&ms); err != nil {
		return time.Time{}, fmt.Errorf("last user message: %w", err)
	}
	return fromOptMillis(ms), nil
}

// CountMessagesSince counts the messages with that source saved at or after since.
func (s *Store) CountMessagesSince(ctx context.Context, source string, since time.Time) (int, error) {
	var n int
	if err := s.db.QueryRowContext(ctx,
		"SELECT COUNT(*) FROM messages WHERE source = ? AND created_at >= ?", source, since.UnixMilli()).Scan(&n); err != nil {
		return 0, fmt.Errorf("count %s messages: %w", source, err)
	}
	return n, nil
}
