package chat

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/wispapp/wisp/internal/fault"

	"github.com/wispapp/wisp/app/store"
)

// DefaultTitle is a conversation's title until one is generated or chosen.
const DefaultTitle = "New Chat"

const maxTitleRunes = 200

// Conversation is the API shape of a conversation (Eliza's, ISO times).
type Conversation struct {
	ID        string          `json:"id"`
	Title     string          `json:"title"`
	RoomID    string          `json:"roomId"`
	CreatedAt string          `json:"createdAt"`
	UpdatedAt string          `json:"updatedAt"`
	Metadata  json.RawMessage `json:"metadata,omitempty"`
	// Unread marks a proactive message no client has seen yet.
	Unread bool `json:"unread"`
}

// ToConversation is the API shape of a stored conversation.
func ToConversation(c store.Conversation) Conversation {
	return Conversation{
		ID: c.ID, Title: c.Title, RoomID: c.RoomID, Metadata: c.Metadata,
		CreatedAt: ISOTime(c.CreatedAt), UpdatedAt: ISOTime(c.UpdatedAt), Unread: c.Unread,
	}
}

// ISOTime is how the API writes a time: ISO 8601 in UTC, with milliseconds.
func ISOTime(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000Z") }

// Conversations lists every conversation, most recently updated first.
func (s *Service) Conversations(ctx context.Context) ([]Conversation, error) {
	rows, err := s.store.Conversations(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]Conversation, len(rows))
	for i, c := range rows {
		out[i] = ToConversation(c)
	}
	return out, nil
}

// CreateConversation starts a conversation.
func (s *Service) CreateConversation(ctx context.Context, title string, metadata json.RawMessage) (Conversation, error) {
	title, err := checkTitle(title, true)
	if err != nil {
		return Conversation{}, err
	}
	if len(metadata) > 0 && (metadata[0] != '{' || !json.Valid(metadata)) {
		return Conversation{}, fault.Invalid.Errorf("metadata must be a JSON object")
	}
	if string(metadata) == "null" {
		metadata = nil
	}
	now := time.Now()
	c := store.Conversation{ID: newID(), Title: title, RoomID: newID(), Metadata: metadata, CreatedAt: now, UpdatedAt: now}
	if err := s.store.CreateConversation(ctx, c); err != nil {
		return Conversation{}, err
	}
	return ToConversation(c), nil
}

// Conversation returns one conversation.
func (s *Service) Conversation(ctx context.Context, id string) (Conversation, error) {
	c, err := s.conversation(ctx, id)
	return ToConversation(c), err
}

func (s *Service) conversation(ctx context.Context, id string) (store.Conversation, error) {
	c, err := s.store.Conversation(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return c, errConversationNotFound
	}
	return c, err
}

// Rename sets a conversation's title and tells every client.
func (s *Service) Rename(ctx context.Context, id, title string) (Conversation, error) {
	title, err := checkTitle(title, false)
	if err != nil {
		return Conversation{}, err
	}
	return s.setTitle(ctx, id, title)
}

func (s *Service) setTitle(ctx context.Context, id, title string) (Conversation, error) {
	c, err := s.store.SetConversationTitle(ctx, id, title, time.Now())
	if errors.Is(err, store.ErrNotFound) {
		return Conversation{}, errConversationNotFound
	}
	if err != nil {
		return Conversation{}, err
	}
	conv := ToConversation(c)
	s.hub.Broadcast(map[string]any{"type": "conversation-updated", "conversation": conv})
	return conv, nil
}

// Delete removes a conversation with its messages and runs, stopping a run in it.
func (s *Service) Delete(ctx context.Context, id string) error {
	s.mu.Lock()
	run := s.active[id]
	s.mu.Unlock()
	if run != nil {
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
			return DefaultTitle, nil
		}
		return "", fault.Invalid.Errorf("title must not be empty")
	}
	if utf8.RuneCountInString(title) > maxTitleRunes {
		return "", fault.Invalid.Errorf("title is longer than %d characters", maxTitleRunes)
	}
	return title, nil
}
