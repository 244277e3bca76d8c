package chat

import (
	"context"
	"time"

	"github.com/wispapp/wisp/app/wire"
	"github.com/wispapp/wisp/internal/fault"

	"github.com/wispapp/wisp/runtime"
	"github.com/wispapp/wisp/runtime/llm"
)

// titleTimeout bounds a title request to the model.
const titleTimeout = 30 * time.Second

// maybeTitle names a conversation after its first exchange, in the background.
func (s *Service) maybeTitle(run *Run, userText, replyText string) {
	if s.opts.NoTitles {
		return
	}
	ctx := context.Background()
	conv, err := s.store.Conversation(ctx, run.ConversationID)
	if err != nil || conv.Title != wire.DefaultTitle {
		return
	}
	// The first exchange of the branch shown (the branch is those two messages).
	if msgs, err := s.store.Messages(ctx, run.ConversationID, 3); err != nil || len(msgs) != 2 {
		return
	}
	s.mu.Lock()
	if s.stopped {
		s.mu.Unlock()
		return
	}
	s.bg.Add(1)
	s.mu.Unlock()
	go func() {
		defer s.bg.Done()
		ctx, cancel := context.WithTimeout(s.base, titleTimeout)
		defer cancel()
		title, used := s.agent.Title(ctx, userText, replyText)
		s.recordUsage(ctx, UsageEntry{ConversationID: run.ConversationID, Kind: UsageTitle, Model: s.model(), Usage: used})
		cur, err := s.store.Conversation(ctx, run.ConversationID)
		if err != nil || cur.Title != wire.DefaultTitle {
			return // deleted or renamed meanwhile: the user's choice wins
		}
		if _, err := s.setTitle(ctx, run.ConversationID, title); err != nil {
			s.log.Warn("save generated title", "conversation", run.ConversationID, "err", err)
		}
	}()
}

// GenerateTitle names a conversation from its last user message now.
func (s *Service) GenerateTitle(ctx context.Context, convID string) (wire.Conversation, error) {
	if _, err := s.conversation(ctx, convID); err != nil {
		return wire.Conversation{}, err
	}
	msgs, err := s.store.Messages(ctx, convID, MessageLimit)
	if err != nil {
		return wire.Conversation{}, err
	}
	var userText, replyText string
	for i := len(msgs) - 1; i >= 0 && userText == ""; i-- {
		switch msgs[i].Role {
		case "user":
			userText = msgs[i].Text
		case "assistant":
			replyText = msgs[i].Text
		}
	}
	if userText == "" {
		return wire.Conversation{}, fault.Invalid.Errorf("the conversation has no message to name it after")
	}
	ctx, cancel := context.WithTimeout(ctx, titleTimeout)
	defer cancel()
	title := runtime.FallbackTitle(userText)
	if ok, _ := s.opts.CanRespond(); ok {
		var used llm.Usage
		title, used = s.agent.Title(ctx, userText, replyText)
		s.recordUsage(ctx, UsageEntry{ConversationID: convID, Kind: UsageTitle, Model: s.model(), Usage: used})
	}
	return s.setTitle(ctx, convID, title)
}
