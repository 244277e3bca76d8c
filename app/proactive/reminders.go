package proactive

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/wispapp/wisp/internal/fault"
	"github.com/wispapp/wisp/internal/ids"

	"github.com/wispapp/wisp/app/store"
	"github.com/wispapp/wisp/app/wire"
)

// Limits of a reminder.
const (
	MaxReminderRunes = 2000
	maxInMinutes     = 366 * 24 * 60
	// pastSlack is how far in the past a reminder's time may be (a clock a little off,
	// a form filled in slowly): it fires at once.
	pastSlack = time.Minute
	// lateAfter is how much after its time a reminder counts as late.
	lateAfter = time.Minute
	// deliveredShown is how many delivered reminders the list keeps.
	deliveredShown = 50
)

// ReminderInput asks for a reminder (POST /api/reminders and SCHEDULE_REMINDER).
type ReminderInput struct {
	ConversationID string   `json:"conversationId"`
	Text           string   `json:"text"`
	At             string   `json:"at"`        // RFC 3339
	InMinutes      *float64 `json:"inMinutes"` // or this
}

func toReminder(r store.Reminder) wire.Reminder {
	out := wire.Reminder{ID: r.ID, Text: r.Text, At: wire.ISOTime(r.At), CreatedAt: wire.ISOTime(r.CreatedAt),
		Status: "pending", Late: r.Late, MessageID: r.MessageID}
	if r.ConversationID != "" {
		id := r.ConversationID
		out.ConversationID = &id
	}
	if !r.Pending() {
		out.Status, out.DeliveredAt = "delivered", wire.ISOTime(r.DeliveredAt)
	}
	return out
}

// AddReminder checks and saves a reminder, tells every client and wakes the
// scheduler.
func (s *Service) AddReminder(ctx context.Context, in ReminderInput) (wire.Reminder, error) {
	now := s.opts.Clock.Now()
	r, err := checkReminder(in, now)
	if err != nil {
		return wire.Reminder{}, err
	}
	if err := s.opts.Store.AddReminder(ctx, r); err != nil {
		if errors.Is(err, store.ErrNotFound) {
			return wire.Reminder{}, fault.NotFound.Errorf("conversation not found")
		}
		return wire.Reminder{}, err
	}
	s.log.Info("reminder set", "id", r.ID, "at", r.At, "conversation", r.ConversationID)
	view := toReminder(r)
	s.opts.Events.Publish(wire.NewReminderUpdated(view))
	s.schedule.wake()
	return view, nil
}

func checkReminder(in ReminderInput, now time.Time) (store.Reminder, error) {
	text := strings.TrimSpace(in.Text)
	if text == "" {
		return store.Reminder{}, fault.Invalid.Errorf("text is required")
	}
	if utf8.RuneCountInString(text) > MaxReminderRunes {
		return store.Reminder{}, fault.Invalid.Errorf("text is longer than %d characters", MaxReminderRunes)
	}
	at, err := reminderTime(in, now)
	if err != nil {
		return store.Reminder{}, err
	}
	return store.Reminder{ID: ids.New(), ConversationID: in.ConversationID, Text: text, At: at, CreatedAt: now}, nil
}

// reminderTime reads exactly one of at and inMinutes.
func reminderTime(in ReminderInput, now time.Time) (time.Time, error) {
	switch {
	case in.At != "" && in.InMinutes != nil:
		return time.Time{}, fault.Invalid.Errorf("give either at or inMinutes, not both")
	case in.InMinutes != nil:
		m := *in.InMinutes
		if math.IsNaN(m) || m <= 0 || m > maxInMinutes {
			return time.Time{}, fault.Invalid.Errorf("inMinutes must be more than 0 and at most %d (a year)", maxInMinutes)
		}
		return now.Add(time.Duration(m * float64(time.Minute))).Truncate(time.Millisecond), nil
	case in.At != "":
		at, err := time.Parse(time.RFC3339, in.At)
		if err != nil {
			return time.Time{}, fault.Invalid.Errorf("at must be an RFC 3339 time with a zone, like 2026-11-21T17:30:00+01:00")
		}
		if at.Before(now.Add(-pastSlack)) {
			return time.Time{}, fault.Invalid.Errorf("at is in the past (%s)", at.Format(time.RFC3339))
		}
		if at.After(now.Add(maxInMinutes * time.Minute)) {
			return time.Time{}, fault.Invalid.Errorf("at is more than a year away")
		}
		return at.Truncate(time.Millisecond), nil
	}
	return time.Time{}, fault.Invalid.Errorf("give the reminder's time: at (RFC 3339) or inMinutes")
}

// Reminders lists the pending reminders by time, then recently delivered ones.
func (s *Service) Reminders(ctx context.Context) ([]wire.Reminder, error) {
	rows, err := s.opts.Store.Reminders(ctx, deliveredShown)
	if err != nil {
		return nil, err
	}
	out := make([]wire.Reminder, len(rows))
	for i, r := range rows {
		out[i] = toReminder(r)
	}
	return out, nil
}

// DeleteReminder deletes a reminder (a pending one will not fire) and tells every
// client.
func (s *Service) DeleteReminder(ctx context.Context, id string) error {
	if err := s.opts.Store.DeleteReminder(ctx, id); err != nil {
		if errors.Is(err, store.ErrNotFound) {
			return fault.NotFound.Errorf("reminder not found")
		}
		return err
	}
	s.opts.Events.Publish(wire.NewReminderDeleted(id))
	s.schedule.wake()
	return nil
}

// reminderText is what Wisp says when a reminder comes due.
func reminderText(r store.Reminder, late bool) string {
	if !late {
		return "Reminder: " + r.Text
	}
	return fmt.Sprintf("Reminder (late: it was due %s): %s", r.At.Local().Format("Mon 2 Jan 15:04"), r.Text)
}
