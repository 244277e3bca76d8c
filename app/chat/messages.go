package chat

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/wispapp/wisp/internal/fault"

	"github.com/wispapp/wisp/app/store"
	"github.com/wispapp/wisp/app/wire"
	"github.com/wispapp/wisp/runtime/reply"
)

// MessageLimit is how many messages a conversation's reload returns.
const MessageLimit = 200

// Messages returns the last MessageLimit messages, oldest first, with assistant replies
// rebuilt as the trail users saw live. A reply still being written (or paused) is
// included with status "active" and its text so far.
func (s *Service) Messages(ctx context.Context, convID string) ([]wire.Message, error) {
	out, _, _, err := s.messages(ctx, convID)
	return out, err
}

// messages is Messages with the live run, if any, and the number of the last event
// of it that the messages reflect, read with its text.
func (s *Service) messages(ctx context.Context, convID string) ([]wire.Message, *Run, int64, error) {
	if _, err := s.conversation(ctx, convID); err != nil {
		return nil, nil, 0, err
	}
	rows, err := s.store.Messages(ctx, convID, MessageLimit)
	if err != nil {
		return nil, nil, 0, err
	}
	out := make([]wire.Message, 0, len(rows)+1)
	for _, m := range rows {
		out = append(out, toMessage(m))
	}
	s.mu.Lock()
	run := s.active[convID]
	s.mu.Unlock()
	if run == nil {
		return out, nil, 0, nil
	}
	text, seq, ended := run.snapshot()
	if ended {
		return out, nil, 0, nil
	}
	// "active" also while paused (the message statuses are seed 000's): a client
	// resumes its stream either way and sees the pause in it.
	out = append(out, wire.Message{ID: run.ReplyMessageID, Role: "assistant", Text: text,
		Timestamp: run.StartedAt.UnixMilli(), Source: "chat", RunID: run.ID, Status: StatusActive})
	return out, run, seq, nil
}

func toMessage(m store.Message) wire.Message {
	msg := wire.Message{ID: m.ID, Role: wire.Role(m.Role), Text: m.Text, Timestamp: m.CreatedAt.UnixMilli(), Source: m.Source, RunID: m.RunID}
	if m.Role != "assistant" {
		return msg
	}
	var meta struct {
		Status, Error, ReminderID string
		Late                      bool
	}
	_ = json.Unmarshal(m.Metadata, &meta)
	msg.Status, msg.Error = wire.RunStatus(meta.Status), meta.Error
	msg.ReminderID, msg.Late = meta.ReminderID, meta.Late
	msg.ActionCallbackHistory = m.CallbackHistory
	var segs []reply.Segment
	if len(m.Segments) > 0 && json.Unmarshal(m.Segments, &segs) == nil && len(segs) > 0 {
		msg.Text = reply.Trail(segs)
	} else if len(m.CallbackHistory) > 0 {
		msg.Text = reply.TrailFromHistory(m.Text, m.CallbackHistory)
	}
	return msg
}

// Truncate deletes a message and everything after it (or only what follows it).
func (s *Service) Truncate(ctx context.Context, convID, messageID string, inclusive bool) (int, error) {
	if messageID == "" {
		return 0, fault.Invalid.Errorf("messageId is required")
	}
	if _, err := s.conversation(ctx, convID); err != nil {
		return 0, err
	}
	s.mu.Lock()
	_, busy := s.active[convID]
	s.mu.Unlock()
	if busy {
		return 0, fault.Conflict.Errorf("a reply is still being written in this conversation")
	}
	n, err := s.store.TruncateMessages(ctx, convID, messageID, inclusive)
	if errors.Is(err, store.ErrNotFound) {
		return 0, fault.NotFound.Errorf("message not found in this conversation")
	}
	return n, err
}
