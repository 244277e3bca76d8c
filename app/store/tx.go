package store

import (
	"context"
	"database/sql"
	"fmt"
	"time"
)

// Tx is one write transaction across repositories: what it does is saved together or
// not at all. Use it through Store.InTx.
type Tx struct {
	tx *sql.Tx
}

// InTx runs fn in a transaction and commits it when fn returns nil. An error from fn,
// or a panic (which is re-raised), rolls everything back.
func (s *Store) InTx(ctx context.Context, fn func(*Tx) error) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("begin: %w", err)
	}
	defer tx.Rollback() // no-op after Commit; also runs when fn panics
	if err := fn(&Tx{tx: tx}); err != nil {
		return err
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("commit: %w", err)
	}
	return nil
}

// Conversation returns one conversation, or ErrNotFound.
func (t *Tx) Conversation(ctx context.Context, id string) (Conversation, error) {
	return conversation(ctx, t.tx, id)
}

// LatestConversation is the most recently updated conversation; ErrNotFound when
// there is none.
func (t *Tx) LatestConversation(ctx context.Context) (Conversation, error) {
	return latestConversation(ctx, t.tx)
}

// CreateConversation saves a new conversation (see Store.CreateConversation).
func (t *Tx) CreateConversation(ctx context.Context, c Conversation) error {
	return createConversation(ctx, t.tx, c)
}

// AddMessage appends a message to the branch shown (see Store.AddMessage).
func (t *Tx) AddMessage(ctx context.Context, m Message) (Message, error) {
	return addMessageTx(ctx, t.tx, m)
}

// SetActiveLeaf makes messageID, a message of the conversation, the last message of
// the branch it shows, exactly (no descent to a newer leaf); ErrNotFound otherwise.
func (t *Tx) SetActiveLeaf(ctx context.Context, conversationID, messageID string) error {
	return setLeafTx(ctx, t.tx, conversationID, messageID)
}

// SaveDisplayMessage saves a display message (see Store.SaveDisplayMessage).
func (t *Tx) SaveDisplayMessage(ctx context.Context, d DisplayMessage) (DisplayMessage, error) {
	return saveDisplayMessage(ctx, t.tx, d)
}

// SetUnread sets or clears a conversation's unread mark and returns the conversation.
func (t *Tx) SetUnread(ctx context.Context, id string, unread bool) (Conversation, error) {
	row := t.tx.QueryRowContext(ctx,
		"UPDATE conversations SET unread = ? WHERE id = ? RETURNING "+conversationColumns, unread, id)
	c, err := scanConversation(row)
	if err != nil {
		return Conversation{}, fmt.Errorf("mark %s unread: %w", id, notFound(err))
	}
	return c, nil
}

// MarkReminderDelivered records a reminder's delivery. It fails with ErrNotFound
// unless the reminder exists and was not delivered yet, so a reminder is delivered
// at most once however often this runs.
func (t *Tx) MarkReminderDelivered(ctx context.Context, id string, at time.Time, late bool, messageID string) error {
	res, err := t.tx.ExecContext(ctx,
		"UPDATE reminders SET delivered_at = ?, late = ?, message_id = ? WHERE id = ? AND delivered_at IS NULL",
		at.UnixMilli(), late, messageID, id)
	if err != nil {
		return fmt.Errorf("mark reminder %s delivered: %w", id, err)
	}
	if err := mustAffect(res); err != nil {
		return fmt.Errorf("reminder %s is not pending: %w", id, err)
	}
	return nil
}
