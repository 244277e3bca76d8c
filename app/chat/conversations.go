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
	"github.com/wispapp/wisp/app/view"
	"github.com/wispapp/wisp/app/wire"
)

const maxTitleRunes = 200

// Conversations lists every conversation, most recently updated first.
func (s *Service) Conversations(ctx context.Context) ([]wire.Conversation, error) {
	rows, err := s.store.Conversations(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]wire.Conversation, len(rows))
	for i, c := range rows {
		out[i] = view.Conversation(c)
	}
	return out, nil
}

// CreateConversation starts a conversation.
func (s *Service) CreateConversation(ctx context.Context, title string, metadata json.RawMessage) (wire.Conversation, error) {
	title, err := checkTitle(title, true)
	if err != nil {
		return wire.Conversation{}, err
	}
	if len(metadata) > 0 && (metadata[0] != '{' || !json.Valid(metadata)) {
		return wire.Conversation{}, fault.Invalid.Errorf("metadata must be a JSON object")
	}
	if string(metadata) == "null" {
		metadata = nil
	}
	now := time.Now()
	c := store.Conversation{ID: ids.New(), Title: title, RoomID: ids.New(), Metadata: metadata, CreatedAt: now, UpdatedAt: now}
	if err := s.store.CreateConversation(ctx, c); err != nil {
		return wire.Conversation{}, err
	}
	return view.Conversation(c), nil
}

// Conversation returns one conversation.
func (s *Service) Conversation(ctx context.Context, id string) (wire.Conversation, error) {
	c, err := s.conversation(ctx, id)
	return view.Conversation(c), err
}

func (s *Service) conversation(ctx context.Context, id string) (store.Conversation, error) {
	c, err := s.store.Conversation(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return c, errConversationNotFound
	}
	return c, err
}

// Rename sets a conversation's title and tells every client.
func (s *Service) Rename(ctx context.Context, id, title string) (wire.Conversation, error) {
	title, err := checkTitle(title, false)
	if err != nil {
		return wire.Conversation{}, err
	}
	return s.setTitle(ctx, id, title)
}

func (s *Service) setTitle(ctx context.Context, id, title string) (wire.Conversation, error) {
	c, err := s.store.SetConversationTitle(ctx, id, title, time.Now())
	if errors.Is(err, store.ErrNotFound) {
		return wire.Conversation{}, errConversationNotFound
	}
	if err != nil {
		return wire.Conversation{}, err
	}
	conv := view.Conversation(c)
	s.events.Publish(wire.NewConversationUpdated(conv))
	return conv, nil
}

// Delete removes a conversation with its messages and runs, stopping a run in it.
func (s *Service) Delete(ctx context.Context, id string) error {
	for _, run := range s.liveRuns(id) {
		run.Cancel(errors.New("the conversation was deleted"))
		_, _ = run.Wait(ctx)
	}
	err := s.store.DeleteConversation(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return errConversationNotFound
	}
	return err
}

func checkTitle(title string, allowEmpty bool) (string, error) {
	title = strings.TrimSpace(title)
	if title == "" {
		if allowEmpty {
			return wire.DefaultTitle, nil
		}
		return "", fault.Invalid.Errorf("title must not be empty")
	}
	if utf8.RuneCountInString(title) > maxTitleRunes {
		return "", fault.Invalid.Errorf("title is longer than %d characters", maxTitleRunes)
	}
	return title, nil
}
