package chat

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/wispapp/wisp/internal/fault"
	"github.com/wispapp/wisp/internal/ids"

	"github.com/wispapp/wisp/app/store"
	"github.com/wispapp/wisp/runtime"
	"github.com/wispapp/wisp/runtime/llm"
)

// MaxMessageRunes caps one user message.
const MaxMessageRunes = 32000

// SendInput is a user's chat message.
type SendInput struct {
	Text            string
	ClientMessageID string
	Metadata        json.RawMessage
}

// Send saves the user's message and starts a run answering it. The run belongs to
// the service, not to the caller: it goes on if the caller goes away.
func (s *Service) Send(ctx context.Context, convID string, in SendInput) (*Run, error) {
	text := strings.TrimSpace(in.Text)
	if text == "" {
		return nil, fault.Invalid.Errorf("text is required")
	}
	if utf8.RuneCountInString(text) > MaxMessageRunes {
		return nil, fault.Invalid.Errorf("text is longer than %d characters", MaxMessageRunes)
	}
	if ok, why := s.opts.CanRespond(); !ok {
		return nil, fault.Unavailable.Errorf("%s", why)
	}
	if _, err := s.conversation(ctx, convID); err != nil {
		return nil, err
	}
	history, err := s.history(ctx, convID)
	if err != nil {
		return nil, err
	}
	runCtx, cancel := context.WithCancelCause(s.base)
	run, err := s.reserve(convID, cancel)
	if err != nil {
		cancel(nil)
		return nil, err
	}
	if err := s.begin(ctx, run, text, in); err != nil {
		s.unregister(run)
		s.runs.Done()
		cancel(nil)
		return nil, err
	}
	go s.execute(runCtx, run, runtime.Input{History: history, Text: text, ConversationID: convID, RunID: run.ID}, nil)
	return run, nil
}

// reserve registers a run for the conversation, refusing a second concurrent one.
func (s *Service) reserve(convID string, cancel context.CancelCauseFunc) (*Run, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.stopped {
		return nil, fault.Unavailable.Errorf("Wisp is shutting down")
	}
	if _, busy := s.active[convID]; busy {
		return nil, fault.Conflict.Errorf("a reply is still being written in this conversation; wait for it or stop it first")
	}
	run := newRun(convID, ids.New(), cancel)
	s.active[convID] = run
	s.byID[run.ID] = run
	s.runs.Add(1)
	return run, nil
}

// unregister frees the conversation for its next run. From then on the run is read
// from the log on disk.
func (s *Service) unregister(run *Run) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.active[run.ConversationID] == run {
		delete(s.active, run.ConversationID)
	}
	delete(s.byID, run.ID)
}

// begin saves the user's message and the run record.
func (s *Service) begin(ctx context.Context, run *Run, text string, in SendInput) error {
	now := time.Now()
	msg := store.Message{
		ID: run.UserMessageID, ConversationID: run.ConversationID, Role: "user", Text: text,
		ClientMessageID: in.ClientMessageID, Metadata: in.Metadata, RunID: run.ID, CreatedAt: now,
	}
	if _, err := s.store.AddMessage(ctx, msg); err != nil {
		if errors.Is(err, store.ErrNotFound) {
			return errConversationNotFound
		}
		return err
	}
	run.StartedAt = now
	return s.store.CreateRun(ctx, store.Run{
		ID: run.ID, ConversationID: run.ConversationID, UserMessageID: run.UserMessageID,
		Status: StatusActive, StartedAt: now,
	})
}

// history is the conversation so far as the model sees it.
func (s *Service) history(ctx context.Context, convID string) ([]llm.Message, error) {
	msgs, err := s.store.Messages(ctx, convID, s.opts.HistoryLimit)
	if err != nil {
		return nil, err
	}
	out := make([]llm.Message, 0, len(msgs))
	for _, m := range msgs {
		if strings.TrimSpace(m.Text) == "" {
			continue // a failed reply with nothing in it
		}
		role := llm.RoleUser
		if m.Role == "assistant" {
			role = llm.RoleAssistant
		}
		out = append(out, llm.Message{Role: role, Text: m.Text})
	}
	return out, nil
}
