package proactive

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/wispapp/wisp/app/wire"
	"github.com/wispapp/wisp/runtime"
)

// ReminderAction is SCHEDULE_REMINDER: the agent sets a reminder in the conversation
// it is talking in.
func (s *Service) ReminderAction() runtime.Action {
	return runtime.Action{
		Name: "SCHEDULE_REMINDER",
		Description: "Remind the user of something later: Wisp will say the text in this conversation at " +
			"that time, even after a restart. Give either at or inMinutes.",
		Schema:  s.reminderSchema,
		Handler: s.runReminderAction,
	}
}

// reminderSchema tells the model the current time, which it needs to compute at. It
// says it to the minute, as reminders are set: the tools' text then changes once a
// minute, not at every call (a changed text is counted again, and breaks a
// provider's prompt cache of the tools).
func (s *Service) reminderSchema() json.RawMessage {
	now := s.opts.Clock.Now().Local().Truncate(time.Minute)
	return wire.JSON(map[string]any{
		"type": "object",
		"properties": map[string]any{
			"text": map[string]any{"type": "string", "description": "What to remind the user of, in a few words"},
			"at": map[string]any{"type": "string", "description": "When, as an RFC 3339 time with its zone. It is now " +
				now.Format(time.RFC3339) + " (" + now.Format("Monday") + ")."},
			"inMinutes": map[string]any{"type": "number", "description": "Or: in how many minutes from now"},
		},
		"required": []string{"text"},
	})
}

func (s *Service) runReminderAction(ctx context.Context, call runtime.Call) (string, error) {
	var in ReminderInput
	if err := json.Unmarshal(call.Args, &in); err != nil {
		return "", fmt.Errorf("arguments: %w", err)
	}
	in.ConversationID = call.ConversationID
	r, err := s.AddReminder(ctx, in)
	if err != nil {
		return "", err
	}
	at, _ := time.Parse(time.RFC3339, r.At)
	when := at.Local().Format("Mon 2 Jan 15:04")
	if call.Callback != nil {
		call.Callback("Reminder set for "+when, runtime.MergeReplace)
	}
	return fmt.Sprintf("Reminder %s set for %s (in %s): %q.", r.ID, when,
		humanDuration(at.Sub(s.opts.Clock.Now())), r.Text), nil
}
