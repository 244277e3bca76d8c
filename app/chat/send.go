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
	// Attachments are the ids of the message's attachments, in order (POST
	// /api/attachments made them). For an edit, nil keeps the edited message's and
	// an empty list sends none.
	Attachments []string
	// Source marks a message that did not come from the user's typing ("task": a
	// scheduled task's prompt, app/tasks); empty for the user's own.
	Source string
	// Claim, when set, runs inside the transaction that saves the message and the
	// run record, with the run's id: an error rolls all three back (a scheduled
	// task claims its slot there, so a slot never runs twice). Send only.
	Claim func(ctx context.Context, tx *store.Tx, runID string) error
}

// Send saves the user's message and starts a run answering it. The run belongs to
// the service, not to the caller: it goes on if the caller goes away.
func (s *Service) Send(ctx context.Context, convID string, in SendInput) (*Run, error) {
	text, err := checkText(in.Text, len(in.Attachments) > 0)
	if err != nil {
		return nil, err
	}
	if ok, why := s.opts.CanRespond(); !ok {
		return nil, fault.Unavailable.Errorf("%s", why)
	}
	if _, err := s.conversation(ctx, convID); err != nil {
		return nil, err
	}
	atts, err := s.resolve(ctx, in.Attachments)
	if err != nil {
		return nil, err
	}
	if err := s.pausedAtLeaf(ctx, convID); err != nil {
		return nil, err
	}
	if err := s.checkFits(ctx, text); err != nil {
		return nil, err
	}
	runCtx, cancel := context.WithCancelCause(s.base)
	run, err := s.reserve(convID, ids.New(), cancel)
	if err != nil {
		cancel(nil)
		return nil, err
	}
	run.attachments = atts
	if err := s.begin(ctx, run, text, in, attachmentIDs(atts)); err != nil {
		s.unregister(run)
		s.runs.Done()
		cancel(nil)
		return nil, err
	}
	go s.execute(runCtx, run, runtime.Input{Text: text, ConversationID: convID, RunID: run.ID}, nil)
	return run, nil
}

// reserve registers a run for the conversation. A conversation streams one run at a
// time: a second is refused while one streams, but a run paused on an approval does
// not count (docs/chat.md#branches: a run on another branch may go on meanwhile).
func (s *Service) reserve(convID, userMsgID string, cancel context.CancelCauseFunc) (*Run, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.stopped {
		return nil, fault.Unavailable.Errorf("Wisp is shutting down")
	}
	if s.streamingLocked(convID) {
		return nil, ErrBusy
	}
	run := newRun(convID, userMsgID, cancel)
	s.active[convID] = append(s.active[convID], run)
	s.byID[run.ID] = run
	s.runs.Add(1)
	return run, nil
}

// ErrBusy refuses a write while a reply is being written in the conversation (or a
// run waits for the user on the branch shown): a scheduled task tries again later.
var ErrBusy = fault.Conflict.Errorf("a reply is still being written in this conversation; wait for it or stop it first")

// streamingLocked reports whether a run of the conversation is writing (not paused).
func (s *Service) streamingLocked(convID string) bool {
	for _, r := range s.active[convID] {
		if !r.isPaused() {
			return true
		}
	}
	return false
}

// liveRuns are the conversation's live runs, oldest first.
func (s *Service) liveRuns(convID string) []*Run {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]*Run(nil), s.active[convID]...)
}

// unregister frees the conversation for its next run. From then on the run is read
// from the log on disk.
func (s *Service) unregister(run *Run) {
	s.mu.Lock()
	defer s.mu.Unlock()
	runs := s.active[run.ConversationID]
	for i, r := range runs {
		if r == run {
			runs = append(runs[:i:i], runs[i+1:]...)
			break
		}
	}
	if len(runs) == 0 {
		delete(s.active, run.ConversationID)
	} else {
		s.active[run.ConversationID] = runs
	}
	delete(s.byID, run.ID)
}

// begin saves the user's message, at the end of the branch shown, and the run record
// in one transaction: both or neither, and one commit before the model is asked.
func (s *Service) begin(ctx context.Context, run *Run, text string, in SendInput, attIDs []string) error {
	now := time.Now()
	msg := store.Message{
		ID: run.UserMessageID, ConversationID: run.ConversationID, Role: "user", Text: text,
		ClientMessageID: in.ClientMessageID, Metadata: in.Metadata, RunID: run.ID, CreatedAt: now,
		AttachmentIDs: attIDs, Source: in.Source,
	}
	err := s.store.InTx(ctx, func(tx *store.Tx) error {
		if _, err := tx.AddMessage(ctx, msg); err != nil {
			return err
		}
		if err := tx.CreateRun(ctx, store.Run{
			ID: run.ID, ConversationID: run.ConversationID, UserMessageID: run.UserMessageID,
			Status: StatusActive, StartedAt: now,
		}); err != nil {
			return err
		}
		if in.Claim != nil {
			return in.Claim(ctx, tx, run.ID)
		}
		return nil
	})
	if errors.Is(err, store.ErrNotFound) {
		return errConversationNotFound
	}
	if err == nil {
		run.StartedAt = now
	}
	return err
}

// checkText is a user message's text, trimmed, or why it cannot be sent. A message
// with attachments may have no text.
func checkText(text string, attached bool) (string, error) {
	text = strings.TrimSpace(text)
	if text == "" && !attached {
		return "", fault.Invalid.Errorf("text is required (or attachments)")
	}
	if utf8.RuneCountInString(text) > MaxMessageRunes {
		return "", fault.Invalid.Errorf("text is longer than %d characters", MaxMessageRunes)
	}
	return text, nil
}

// toHistory is a branch as the model sees it.
func toHistory(msgs []store.Message) []llm.Message {
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
	return out
}
