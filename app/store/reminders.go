package store

import (
	"context"
	"database/sql"
	"fmt"
	"time"
)

// Reminder is a message the user asked for at a given time.
type Reminder struct {
	ID             string
	ConversationID string // "" when its conversation was deleted
	Text           string
	At, CreatedAt  time.Time
	DeliveredAt    time.Time // zero while pending
	Late           bool
	MessageID      string // the message that delivered it
}

// Pending reports whether the reminder is still to be delivered.
func (r Reminder) Pending() bool { return r.DeliveredAt.IsZero() }

const reminderColumns = "id, conversation_id, text, at, created_at, delivered_at, late, message_id"

// AddReminder saves a pending reminder; ErrNotFound if its conversation does not
// exist.
func (s *Store) AddReminder(ctx context.Context, r Reminder) error {
	if err := requireTime("at", r.At); err != nil {
		return fmt.Errorf("add reminder %s: %w", r.ID, err)
	}
	if err := requireTime("created at", r.CreatedAt); err != nil {
		return fmt.Errorf("add reminder %s: %w", r.ID, err)
	}
	_, err := s.db.ExecContext(ctx,
		"INSERT INTO reminders (id, conversation_id, text, at, created_at) VALUES (?, ?, ?, ?, ?)",
		r.ID, optText(r.ConversationID), r.Text, r.At.UnixMilli(), r.CreatedAt.UnixMilli())
	if err != nil {
		return fmt.Errorf("add reminder %s: %w", r.ID, notFound(err))
	}
	return nil
}

// Reminder returns one reminder, or ErrNotFound.
func (s *Store) Reminder(ctx context.Context, id string) (Reminder, error) {
	r, err := scanReminder(s.db.QueryRowContext(ctx, "SELECT "+reminderColumns+" FROM reminders WHERE id = ?", id))
	if err != nil {
		return Reminder{}, fmt.Errorf("load reminder %s: %w", id, notFound(err))
	}
	return r, nil
}

// Reminders lists the pending reminders, soonest first, then the delivered ones,
// most recent first, at most delivered of them.
func (s *Store) Reminders(ctx context.Context, delivered int) ([]Reminder, error) {
	pending, err := queryAll(ctx, s.db, "list reminders", scanReminder,
		"SELECT "+reminderColumns+" FROM reminders WHERE delivered_at IS NULL ORDER BY at, id")
	if err != nil {
		return nil, err
	}
	done, err := queryAll(ctx, s.db, "list reminders", scanReminder,
		"SELECT "+reminderColumns+" FROM reminders WHERE delivered_at IS NOT NULL ORDER BY delivered_at DESC, id LIMIT ?",
		sqlLimit(delivered))
	return append(pending, done...), err
}

// DueReminders lists up to limit pending reminders due at or before now, oldest first.
func (s *Store) DueReminders(ctx context.Context, now time.Time, limit int) ([]Reminder, error) {
	return queryAll(ctx, s.db, "due reminders", scanReminder,
		"SELECT "+reminderColumns+" FROM reminders WHERE delivered_at IS NULL AND at <= ? ORDER BY at, id LIMIT ?",
		now.UnixMilli(), sqlLimit(limit))
}

// NextReminder is the pending reminder due soonest; false when none is pending.
func (s *Store) NextReminder(ctx context.Context) (Reminder, bool, error) {
	r, err := scanReminder(s.db.QueryRowContext(ctx,
		"SELECT "+reminderColumns+" FROM reminders WHERE delivered_at IS NULL ORDER BY at, id LIMIT 1"))
	if err == sql.ErrNoRows {
		return Reminder{}, false, nil
	}
	if err != nil {
		return Reminder{}, false, fmt.Errorf("next reminder: %w", err)
	}
	return r, true, nil
}

// DeleteReminder deletes a reminder, pending or delivered; ErrNotFound if there is
// none with that id.
func (s *Store) DeleteReminder(ctx context.Context, id string) error {
	res, err := s.db.ExecContext(ctx, "DELETE FROM reminders WHERE id = ?", id)
	if err != nil {
		return fmt.Errorf("delete reminder %s: %w", id, err)
	}
	if err := mustAffect(res); err != nil {
		return fmt.Errorf("delete reminder %s: %w", id, err)
	}
	return nil
}

func scanReminder(r scanner) (Reminder, error) {
	var rem Reminder
	var conv, msg sql.NullString
	var at, created int64
	var delivered sql.NullInt64
	if err := r.Scan(&rem.ID, &conv, &rem.Text, &at, &created, &delivered, &rem.Late, &msg); err != nil {
		return Reminder{}, err
	}
	rem.ConversationID, rem.MessageID = conv.String, msg.String
	rem.At, rem.CreatedAt = time.UnixMilli(at), time.UnixMilli(created)
	rem.DeliveredAt = fromOptMillis(delivered)
	return rem, nil
}
