package chat

import (
	"context"
	"errors"
	"time"

	"github.com/wispapp/wisp/internal/fault"
	"github.com/wispapp/wisp/internal/ids"

	"github.com/wispapp/wisp/app/store"
	"github.com/wispapp/wisp/app/wire"
	"github.com/wispapp/wisp/runtime"
)

// A conversation is a tree of messages; it shows the branch that ends at its active
// leaf (docs/chat.md#branches). Send appends to the leaf; Edit and Regenerate start a
// new branch beside a message; SetBranch shows another one. The model sees only the
// branch above the message it answers. A run paused on an approval on a branch not
// shown stays live and does not block the others: a conversation streams one run at
// a time, but may have several live.

var (
	errMessageNotFound = fault.NotFound.Errorf("message not found in this conversation")
	errNotOnBranch     = fault.NotFound.Errorf("message not found on the branch shown")
)

// messageErr maps the store's answers about a message id to the API's.
func messageErr(err error) error {
	switch {
	case errors.Is(err, store.ErrNotOnBranch):
		return errNotOnBranch
	case errors.Is(err, store.ErrNotFound):
		return errMessageNotFound
	}
	return err
}

// Edit asks a user message again in other words: a new user message becomes its
// sibling and the branch shown, and a run answers it with the branch above it as
// history. The message and the run are saved together (nothing half-written).
func (s *Service) Edit(ctx context.Context, convID, messageID string, in SendInput) (*Run, error) {
	old, err := s.turnMessage(ctx, convID, messageID, "user")
	if err != nil {
		return nil, err
	}
	atts, err := s.editAttachments(ctx, old, in.Attachments)
	if err != nil {
		return nil, err
	}
	text, err := checkText(in.Text, len(atts) > 0)
	if err != nil {
		return nil, err
	}
	if err := s.checkFits(ctx, text); err != nil {
		return nil, err
	}
	return s.startTurn(convID, "", text, atts, func(run *Run, now time.Time) func(*store.Tx) error {
		return func(tx *store.Tx) error {
			_, err := tx.AddUserTurn(ctx, store.Message{
				ID: run.UserMessageID, ParentID: old.ParentID, ConversationID: convID, Role: "user", Text: text,
				ClientMessageID: in.ClientMessageID, Metadata: in.Metadata, RunID: run.ID, CreatedAt: now,
				AttachmentIDs: attachmentIDs(atts),
			}, store.Run{ID: run.ID, ConversationID: convID, UserMessageID: run.UserMessageID, Status: StatusActive, StartedAt: now})
			return err
		}
	})
}

// editAttachments are an edit's attachments: the edited message's when ids is nil,
// else exactly ids (checked as a new message's).
func (s *Service) editAttachments(ctx context.Context, old store.Message, ids []string) ([]store.Attachment, error) {
	if ids != nil {
		return s.resolve(ctx, ids)
	}
	by, err := s.store.MessageAttachments(ctx, []string{old.ID})
	if err != nil {
		return nil, err
	}
	return by[old.ID], nil
}

// Regenerate answers again the user message that an assistant message answered: the
// branch shown ends at that user message while a run answers it (history: the branch
// above it), and the reply becomes a sibling of the assistant message.
func (s *Service) Regenerate(ctx context.Context, convID, messageID string) (*Run, error) {
	reply, err := s.turnMessage(ctx, convID, messageID, "assistant")
	if err != nil {
		return nil, err
	}
	var question store.Message
	if reply.ParentID != "" {
		question, err = s.store.Message(ctx, convID, reply.ParentID)
		if err != nil {
			return nil, messageErr(err)
		}
	}
	if question.Role != "user" {
		return nil, fault.Invalid.Errorf("the message does not answer a user message")
	}
	by, err := s.store.MessageAttachments(ctx, []string{question.ID})
	if err != nil {
		return nil, err
	}
	return s.startTurn(convID, question.ID, question.Text, by[question.ID], func(run *Run, now time.Time) func(*store.Tx) error {
		return func(tx *store.Tx) error {
			if err := tx.SetActiveLeaf(ctx, convID, question.ID); err != nil {
				return err
			}
			return tx.CreateRun(ctx, store.Run{ID: run.ID, ConversationID: convID, UserMessageID: question.ID,
				Status: StatusActive, StartedAt: now})
		}
	})
}

// turnMessage loads the message an edit or a regenerate starts from and checks its
// role, after the checks every new turn makes.
func (s *Service) turnMessage(ctx context.Context, convID, messageID, role string) (store.Message, error) {
	if ok, why := s.opts.CanRespond(); !ok {
		return store.Message{}, fault.Unavailable.Errorf("%s", why)
	}
	if _, err := s.conversation(ctx, convID); err != nil {
		return store.Message{}, err
	}
	m, err := s.store.Message(ctx, convID, messageID)
	if err != nil {
		return store.Message{}, messageErr(err)
	}
	if m.Role != role {
		return store.Message{}, fault.Invalid.Errorf("the message is not a %s message", role)
	}
	return m, nil
}

// startTurn reserves a run (userMsgID "" for a new user message), saves what save
// writes in one transaction and starts the run answering text.
func (s *Service) startTurn(convID, userMsgID string, text string, atts []store.Attachment,
	save func(run *Run, now time.Time) func(*store.Tx) error) (*Run, error) {
	if userMsgID == "" {
		userMsgID = ids.New()
	}
	runCtx, cancel := context.WithCancelCause(s.base)
	run, err := s.reserve(convID, userMsgID, cancel)
	if err != nil {
		cancel(nil)
		return nil, err
	}
	now := run.StartedAt
	run.attachments = atts
	if err := s.store.InTx(context.Background(), save(run, now)); err != nil {
		s.unregister(run)
		s.runs.Done()
		cancel(nil)
		return nil, messageErr(err)
	}
	s.events.Publish(wire.NewConversationBranch(convID, run.UserMessageID))
	go s.execute(runCtx, run, runtime.Input{Text: text, ConversationID: convID, RunID: run.ID}, nil)
	return run, nil
}

// SetBranch shows the branch through messageID (down to its newest leaf), tells
// every window, and answers the branch's newest page.
func (s *Service) SetBranch(ctx context.Context, convID, messageID string) (wire.MessageList, error) {
	if messageID == "" {
		return wire.MessageList{}, fault.Invalid.Errorf("messageId is required")
	}
	if _, err := s.conversation(ctx, convID); err != nil {
		return wire.MessageList{}, err
	}
	s.mu.Lock()
	busy := s.streamingLocked(convID)
	s.mu.Unlock()
	if busy {
		return wire.MessageList{}, ErrBusy
	}
	leaf, err := s.store.SwitchBranch(ctx, convID, messageID)
	if err != nil {
		return wire.MessageList{}, messageErr(err)
	}
	s.events.Publish(wire.NewConversationBranch(convID, leaf))
	return s.Messages(ctx, convID, Page{})
}

// pausedAtLeaf refuses a send while a run paused on an approval would reply at the
// end of the branch shown (its user message is the leaf or above it).
func (s *Service) pausedAtLeaf(ctx context.Context, convID string) error {
	runs := s.liveRuns(convID)
	if len(runs) == 0 {
		return nil
	}
	run, err := s.shownRun(ctx, convID, runs)
	if err != nil {
		return err
	}
	if run != nil {
		return ErrBusy
	}
	return nil
}

// shownRun is the newest of runs replying on the branch shown (its user message is
// the leaf or above it), or nil.
func (s *Service) shownRun(ctx context.Context, convID string, runs []*Run) (*Run, error) {
	if len(runs) == 0 {
		return nil, nil
	}
	conv, err := s.store.Conversation(ctx, convID)
	if err != nil {
		return nil, err
	}
	for i := len(runs) - 1; i >= 0; i-- {
		below, err := s.store.Descends(ctx, conv.ActiveLeafID, runs[i].UserMessageID)
		if err != nil {
			return nil, err
		}
		if below {
			return runs[i], nil
		}
	}
	return nil, nil
}
