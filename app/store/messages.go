package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"time"
)

// Message is one turn of a conversation as the model sees it: a user's text or an
// assistant's reply. Messages form a tree: each follows its parent.
type Message struct {
	ID, ConversationID, Role, Text, Source, RunID, ClientMessageID string
	// ParentID is the message this one follows ("" for a conversation's first);
	// Depth its index on its branch, set by the store from the parent's.
	ParentID string
	Depth    int

	Segments        json.RawMessage // the reply's segments; nil when absent
	CallbackHistory []string        // nil when absent
	Metadata        json.RawMessage // nil when absent
	CreatedAt       time.Time
	// AttachmentIDs are listed on the message as it is saved, in order (they must
	// exist); the reads leave it empty: MessageAttachments reads them.
	AttachmentIDs []string
}

const messageColumns = "id, conversation_id, role, text, source, run_id, segments, callback_history, client_message_id, metadata, created_at, parent_id, depth"

const insertMessageSQL = "INSERT INTO messages (" + messageColumns + ") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"

// AddMessage appends a message to the branch its conversation shows: it follows the
// active leaf and becomes the leaf, and the conversation's updated_at moves forward
// to its time, in one transaction. It returns the message as saved (its parent and
// depth); ErrNotFound if the conversation does not exist.
func (s *Store) AddMessage(ctx context.Context, m Message) (Message, error) {
	var saved Message
	err := s.InTx(ctx, func(tx *Tx) error {
		var err error
		saved, err = tx.AddMessage(ctx, m)
		return err
	})
	return saved, err
}

func addMessageTx(ctx context.Context, tx *sql.Tx, m Message) (Message, error) {
	var leaf sql.NullString
	err := tx.QueryRowContext(ctx, "SELECT active_leaf_id FROM conversations WHERE id = ?", m.ConversationID).Scan(&leaf)
	if err != nil {
		return Message{}, fmt.Errorf("add message %s: conversation %s: %w", m.ID, m.ConversationID, notFound(err))
	}
	m.ParentID = leaf.String
	return m, addChildTx(ctx, tx, &m, true)
}

// addChildTx saves m after m.ParentID ("" for a first message), moves its
// conversation's updated_at forward and, with lead set, makes it the active leaf.
func addChildTx(ctx context.Context, tx *sql.Tx, m *Message, lead bool) error {
	if err := insertMessageTx(ctx, tx, m); err != nil {
		return fmt.Errorf("add message %s: %w", m.ID, err)
	}
	if err := touchConversationTx(ctx, tx, m.ConversationID, m.CreatedAt); err != nil {
		return fmt.Errorf("add message %s: %w", m.ID, err)
	}
	if lead {
		return setLeafTx(ctx, tx, m.ConversationID, m.ID)
	}
	return nil
}

// insertMessageTx saves m as it is under its parent, which must be a message of the
// same conversation; m.Depth is set from the parent's.
func insertMessageTx(ctx context.Context, tx *sql.Tx, m *Message) error {
	m.Depth = 0
	if m.ParentID != "" {
		err := tx.QueryRowContext(ctx, "SELECT depth + 1 FROM messages WHERE id = ? AND conversation_id = ?",
			m.ParentID, m.ConversationID).Scan(&m.Depth)
		if err != nil {
			return fmt.Errorf("parent %s: %w", m.ParentID, notFound(err))
		}
	}
	args, err := messageArgs(*m)
	if err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, insertMessageSQL, args...); err != nil {
		return duplicate(notFound(err))
	}
	return linkAttachmentsTx(ctx, tx, m.ID, m.AttachmentIDs)
}

// setLeafTx makes messageID the last message of the branch its conversation shows.
func setLeafTx(ctx context.Context, tx *sql.Tx, convID, messageID string) error {
	res, err := tx.ExecContext(ctx, `UPDATE conversations SET active_leaf_id = ?2 WHERE id = ?1
		AND EXISTS (SELECT 1 FROM messages WHERE id = ?2 AND conversation_id = ?1)`, convID, messageID)
	if err != nil {
		return fmt.Errorf("set the leaf of %s: %w", convID, err)
	}
	if err := mustAffect(res); err != nil {
		return fmt.Errorf("set the leaf of %s to %s: %w", convID, messageID, err)
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
		segments, history, optText(m.ClientMessageID), meta, m.CreatedAt.UnixMilli(), optText(m.ParentID), m.Depth}, nil
}

// Messages returns the last limit messages of the branch a conversation shows,
// oldest first; limit <= 0 returns the whole branch. An unknown conversation has none.
func (s *Store) Messages(ctx context.Context, conversationID string, limit int) ([]Message, error) {
	return queryAll(ctx, s.db, "load messages", scanMessage, activePathSQL, conversationID, sqlLimit(limit))
}

// Path returns the last limit messages of the branch that ends at messageID (it
// included), oldest first; limit <= 0 returns the whole branch. An unknown id has none.
func (s *Store) Path(ctx context.Context, conversationID, messageID string, limit int) ([]Message, error) {
	return queryAll(ctx, s.db, "load a branch", scanMessage, messagePathSQL, conversationID, sqlLimit(limit), messageID)
}

// ActivePath is the whole branch a conversation shows, oldest first.
func (s *Store) ActivePath(ctx context.Context, conversationID string) ([]Message, error) {
	return s.Messages(ctx, conversationID, 0)
}

var (
	activePathSQL  = pathSQL("(SELECT active_leaf_id FROM conversations WHERE id = ?1)")
	messagePathSQL = pathSQL("?3")
)

// pathSQL walks up through the parents of a message (start: an expression giving
// its id; ?1 is the conversation, ?2 the limit, -1 for none).
func pathSQL(start string) string {
	return `WITH RECURSIVE up(n, parent, k) AS (
		SELECT n, parent_id, 1 FROM messages WHERE id = ` + start + ` AND conversation_id = ?1
		UNION ALL
		SELECT m.n, m.parent_id, up.k + 1 FROM up CROSS JOIN messages m ON m.id = up.parent
		WHERE m.conversation_id = ?1 AND (?2 < 0 OR up.k < ?2)
	)
	SELECT ` + messageColumns + ` FROM messages WHERE n IN (SELECT n FROM up) ORDER BY depth`
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

func scanMessage(r scanner) (Message, error) {
	var m Message
	var source, runID, clientID sql.NullString
	var segments, history, meta []byte
	var created int64
	var parent sql.NullString
	if err := r.Scan(&m.ID, &m.ConversationID, &m.Role, &m.Text, &source, &runID,
		&segments, &history, &clientID, &meta, &created, &parent, &m.Depth); err != nil {
		return Message{}, err
	}
	m.ParentID = parent.String
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

// descendsTx reports whether the message id is ancestor or one of its descendants.
// It walks up from id no higher than ancestor's depth.
func descendsTx(ctx context.Context, q querier, id, ancestor string) (bool, error) {
	if id == "" || ancestor == "" {
		return false, nil
	}
	var ok bool
	err := q.QueryRowContext(ctx, `WITH RECURSIVE up(id, parent, depth) AS (
			SELECT id, parent_id, depth FROM messages WHERE id = ?1
			UNION ALL
			SELECT m.id, m.parent_id, m.depth FROM up CROSS JOIN messages m ON m.id = up.parent
			WHERE up.id != ?2 AND up.depth > (SELECT depth FROM messages WHERE id = ?2)
		)
		SELECT EXISTS (SELECT 1 FROM up WHERE id = ?2)`, id, ancestor).Scan(&ok)
	if err != nil {
		return false, fmt.Errorf("is %s below %s: %w", id, ancestor, err)
	}
	return ok, nil
}
