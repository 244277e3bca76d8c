package proactive

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/wispapp/wisp/app/store"
)

// autonomyInstructions turn a character into one that speaks first only when it
// is worth it.
const autonomyInstructions = `You are running in the background on your own initiative: nobody asked you anything. ` +
	`Below is what happened recently. Decide whether it is worth interrupting the user. Most of the time it is not: ` +
	`then call stay_silent with a short reason. Call speak only with something short, useful and new (a long task ` +
	`that finished, a reminder coming up, a gentle check-in after a long silence), never repeating what you ` +
	`already said. Always call exactly one of the two tools.`

// Limits of what a tick shows the model.
const (
	recentMessages   = 6
	messagePreview   = 300
	upcomingReminder = time.Hour
)

// situation is what a tick shows the agent: the time, when the user last spoke, what
// happened since the last tick, reminders coming up, and how the open conversation
// ends.
func (s *Service) situation(ctx context.Context, now, since time.Time, set Settings, seen activityCounts) (string, error) {
	var b strings.Builder
	fmt.Fprintf(&b, "It is %s.\n", now.Local().Format("Monday 2 January 2006, 15:04 MST"))
	if seen.spoke.IsZero() {
		b.WriteString("The user has not written to you yet.\n")
	} else {
		fmt.Fprintf(&b, "The user last wrote %s ago.\n", humanDuration(now.Sub(seen.spoke)))
	}
	s.writeHappenings(&b, now, since)
	if err := s.writeUpcoming(ctx, &b, now); err != nil {
		return "", err
	}
	fmt.Fprintf(&b, "You spoke on your own %d times in the last hour (at most %d allowed).\n", seen.sent, set.MaxPerHour)
	if err := s.writeConversation(ctx, &b); err != nil {
		return "", err
	}
	return b.String(), nil
}

func (s *Service) writeHappenings(b *strings.Builder, now, since time.Time) {
	if since.IsZero() {
		b.WriteString("\nThis is your first look since Wisp started. Recently:\n")
	} else {
		fmt.Fprintf(b, "\nSince you last looked, %s ago:\n", humanDuration(now.Sub(since)))
	}
	happened := s.activity.since(since)
	if len(happened) == 0 {
		b.WriteString("- nothing happened.\n")
	}
	for _, h := range happened {
		fmt.Fprintf(b, "- %s (%s ago)\n", h.text, humanDuration(now.Sub(h.at)))
	}
}

func (s *Service) writeUpcoming(ctx context.Context, b *strings.Builder, now time.Time) error {
	soon, err := s.opts.Store.DueReminders(ctx, now.Add(upcomingReminder), 20)
	if err != nil {
		return err
	}
	if len(soon) == 0 {
		return nil
	}
	b.WriteString("\nReminders due within the hour (Wisp delivers them itself at their time):\n")
	for _, r := range soon {
		fmt.Fprintf(b, "- at %s: %s\n", r.At.Local().Format("15:04"), shorten(r.Text, messagePreview))
	}
	return nil
}

// writeConversation shows how the conversation a proactive message would go to ends.
func (s *Service) writeConversation(ctx context.Context, b *strings.Builder) error {
	id, ok := s.opts.Presence.ActiveConversation()
	var conv store.Conversation
	var err error
	if ok {
		conv, err = s.opts.Store.Conversation(ctx, id)
	}
	if !ok || errors.Is(err, store.ErrNotFound) {
		conv, err = s.opts.Store.LatestConversation(ctx)
	}
	if errors.Is(err, store.ErrNotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	msgs, err := s.opts.Store.Messages(ctx, conv.ID, recentMessages)
	if err != nil || len(msgs) == 0 {
		return err
	}
	fmt.Fprintf(b, "\nThe conversation %q, where you would speak, ends with:\n", conv.Title)
	for _, m := range msgs {
		who := "user"
		if m.Role == "assistant" {
			who = "you"
		}
		fmt.Fprintf(b, "%s: %s\n", who, shorten(strings.Join(strings.Fields(m.Text), " "), messagePreview))
	}
	return nil
}
