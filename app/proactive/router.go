package proactive

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"strings"
	"time"

	"github.com/wispapp/wisp/app/store"
	"github.com/wispapp/wisp/app/view"
	"github.com/wispapp/wisp/app/wire"
	"github.com/wispapp/wisp/internal/clock"
	"github.com/wispapp/wisp/internal/ids"
)

// The sources of proactive messages.
const (
	SourceReminder = "reminder"
	SourceAutonomy = "autonomy"
	SourceTerminal = "terminal"
)

// Note is a proactive message to deliver.
type Note struct {
	Text   string
	Source string
	// ConversationID is where it should go if that conversation still exists; empty
	// routes it (the active conversation, else the latest, else a new one).
	ConversationID string
	// ReminderID, for a reminder, is marked delivered in the same transaction.
	ReminderID string
	Late       bool
}

// Delivered is a saved proactive message.
type Delivered struct {
	Conversation store.Conversation
	Message      store.Message
	Created      bool // the conversation was made for it
}

// Router saves proactive messages into conversations and tells every client.
type Router struct {
	store    *store.Store
	events   wire.Events
	presence Presence
	clock    clock.Clock
	log      *slog.Logger
	// afterSend, in tests, runs inside the transaction between saving the message
	// and the bookkeeping; an error (or panic) there stands for a crash.
	afterSend func() error
}

// ErrAlreadyDelivered means the reminder was delivered (or deleted) before.
var ErrAlreadyDelivered = errors.New("the reminder is not pending")

// Deliver saves a note as an assistant message, with its display row, the
// conversation's new updatedAt and unread mark and, for a reminder, its delivery
// record, all in one transaction; then it broadcasts proactive-message and
// conversation-updated.
func (r *Router) Deliver(ctx context.Context, n Note) (Delivered, error) {
	text := strings.TrimSpace(n.Text)
	if text == "" {
		return Delivered{}, errors.New("a proactive message needs text")
	}
	var out Delivered
	var display store.DisplayMessage
	err := r.store.InTx(ctx, func(tx *store.Tx) error {
		now := r.clock.Now()
		conv, created, err := r.target(ctx, tx, n, now)
		if err != nil {
			return err
		}
		msg := store.Message{
			ID: ids.New(), ConversationID: conv.ID, Role: "assistant", Text: text, Source: n.Source,
			Metadata: noteMeta(n), CreatedAt: now,
		}
		if msg, err = tx.AddMessage(ctx, msg); err != nil {
			return err
		}
		if r.afterSend != nil {
			if err := r.afterSend(); err != nil {
				return err
			}
		}
		if n.ReminderID != "" {
			if err := tx.MarkReminderDelivered(ctx, n.ReminderID, now, n.Late, msg.ID); err != nil {
				if errors.Is(err, store.ErrNotFound) {
					return ErrAlreadyDelivered
				}
				return err
			}
		}
		display, err = tx.SaveDisplayMessage(ctx, store.DisplayMessage{
			ID: ids.New(), ConversationID: conv.ID, MessageType: "assistant", ContentType: "text",
			Content: wire.JSON(map[string]string{"text": text}), Metadata: noteMeta(n), CreatedAt: now,
		})
		if err != nil {
			return err
		}
		conv, err = tx.SetUnread(ctx, conv.ID, !r.presence.Showing(conv.ID))
		if err != nil {
			return err
		}
		out = Delivered{Conversation: conv, Message: msg, Created: created}
		return nil
	})
	if err != nil {
		return Delivered{}, err
	}
	r.announce(out, display, n)
	return out, nil
}

// target picks the conversation: the note's own, else the active one, else the most
// recently updated, else a new one.
func (r *Router) target(ctx context.Context, tx *store.Tx, n Note, now time.Time) (store.Conversation, bool, error) {
	for _, id := range r.candidates(n) {
		c, err := tx.Conversation(ctx, id)
		if err == nil {
			return c, false, nil
		}
		if !errors.Is(err, store.ErrNotFound) {
			return c, false, err
		}
	}
	c, err := tx.LatestConversation(ctx)
	if err == nil || !errors.Is(err, store.ErrNotFound) {
		return c, false, err
	}
	c = store.Conversation{ID: ids.New(), Title: newTitle(n.Source), RoomID: ids.New(), CreatedAt: now, UpdatedAt: now}
	return c, true, tx.CreateConversation(ctx, c)
}

func (r *Router) candidates(n Note) []string {
	var ids []string
	if n.ConversationID != "" {
		ids = append(ids, n.ConversationID)
	}
	if id, ok := r.presence.ActiveConversation(); ok {
		ids = append(ids, id)
	}
	return ids
}

func (r *Router) announce(d Delivered, display store.DisplayMessage, n Note) {
	m := wire.ProactiveMessage{
		ID: d.Message.ID, Role: "assistant", Text: d.Message.Text, Timestamp: d.Message.CreatedAt.UnixMilli(),
		Source: n.Source,
	}
	if n.ReminderID != "" {
		late := n.Late
		m.ReminderID, m.Late = n.ReminderID, &late
	}
	conv := view.Conversation(d.Conversation)
	r.events.Publish(wire.NewProactive(conv.ID, m))
	r.events.Publish(wire.NewDisplayMessageSaved(view.DisplayMessage(display)))
	r.events.Publish(wire.NewConversationUpdated(conv))
	r.log.Info("proactive message", "source", n.Source, "conversation", conv.ID, "unread", conv.Unread, "created", d.Created)
}

// markRead clears a conversation's unread mark and tells every client.
func (r *Router) markRead(ctx context.Context, convID string) {
	c, changed, err := r.store.MarkRead(ctx, convID)
	if err != nil {
		r.log.Warn("mark conversation read", "conversation", convID, "err", err)
		return
	}
	if changed {
		r.events.Publish(wire.NewConversationUpdated(view.Conversation(c)))
	}
}

func newTitle(source string) string {
	switch source {
	case SourceReminder:
		return "Reminders"
	case SourceTerminal:
		return "Terminal"
	}
	return wire.DefaultTitle
}

// noteMeta is what the message and its display row record about the note.
func noteMeta(n Note) json.RawMessage {
	m := map[string]any{"source": n.Source}
	if n.ReminderID != "" {
		m["reminderId"], m["late"] = n.ReminderID, n.Late
	}
	return wire.JSON(m)
}
