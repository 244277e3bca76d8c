package api

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/wispapp/wisp/app/chat"
	"github.com/wispapp/wisp/app/wire"
	"github.com/wispapp/wisp/internal/fault"
)

// fakeConversations answers what its function fields say; the rest is not found.
type fakeConversations struct {
	create   func(ctx context.Context, title string, metadata json.RawMessage) (wire.Conversation, error)
	rename   func(ctx context.Context, id, title string) (wire.Conversation, error)
	generate func(ctx context.Context, id string) (wire.Conversation, error)
	truncate func(ctx context.Context, id, messageID string, inclusive bool) (int, error)
	search   func(ctx context.Context, q string, limit int, cursor string) (wire.SearchResults, error)
	// messages and setBranch answer a page; nil: the conversation is not found.
	messages  func(ctx context.Context, id string, p chat.Page) (wire.MessageList, error)
	setBranch func(ctx context.Context, id, messageID string) (wire.MessageList, error)
}

var errNoSuch = fault.NotFound.Errorf("conversation not found")

func (f fakeConversations) Conversations(context.Context) ([]wire.Conversation, error) {
	return []wire.Conversation{}, nil
}

func (f fakeConversations) CreateConversation(ctx context.Context, title string, metadata json.RawMessage) (wire.Conversation, error) {
	if f.create == nil {
		return wire.Conversation{}, errNotFaked
	}
	return f.create(ctx, title, metadata)
}

func (f fakeConversations) Conversation(context.Context, string) (wire.Conversation, error) {
	return wire.Conversation{}, errNoSuch
}

func (f fakeConversations) Rename(ctx context.Context, id, title string) (wire.Conversation, error) {
	if f.rename == nil {
		return wire.Conversation{}, errNotFaked
	}
	return f.rename(ctx, id, title)
}

func (f fakeConversations) GenerateTitle(ctx context.Context, id string) (wire.Conversation, error) {
	if f.generate == nil {
		return wire.Conversation{}, errNotFaked
	}
	return f.generate(ctx, id)
}

func (f fakeConversations) Delete(context.Context, string) error { return errNoSuch }
func (f fakeConversations) Messages(ctx context.Context, id string, p chat.Page) (wire.MessageList, error) {
	if f.messages == nil {
		return wire.MessageList{}, errNoSuch
	}
	return f.messages(ctx, id, p)
}

func (f fakeConversations) SetBranch(ctx context.Context, id, messageID string) (wire.MessageList, error) {
	if f.setBranch == nil {
		return wire.MessageList{}, errNoSuch
	}
	return f.setBranch(ctx, id, messageID)
}

func (f fakeConversations) DisplayMessages(context.Context, string) ([]wire.DisplayMessage, error) {
	return nil, errNoSuch
}

func (f fakeConversations) Snapshot(context.Context, string) (wire.Snapshot, error) {
	return wire.Snapshot{}, errNoSuch
}

func (f fakeConversations) Truncate(ctx context.Context, id, messageID string, inclusive bool) (int, error) {
	if f.truncate == nil {
		return 0, errNotFaked
	}
	return f.truncate(ctx, id, messageID, inclusive)
}

func (f fakeConversations) Search(ctx context.Context, q string, limit int, cursor string) (wire.SearchResults, error) {
	if f.search == nil {
		return wire.SearchResults{}, errNotFaked
	}
	return f.search(ctx, q, limit, cursor)
}

func (f fakeConversations) RunState(context.Context, string) (wire.RunState, error) {
	return wire.RunState{}, fault.NotFound.Errorf("run not found")
}

func TestConversationRoutes(t *testing.T) {
	var calls []string
	conv := wire.Conversation{ID: "c1", Title: "T"}
	s := serveAPI(t, "", Options{Conversations: fakeConversations{
		create: func(_ context.Context, title string, metadata json.RawMessage) (wire.Conversation, error) {
			calls = append(calls, "create "+title+" "+string(metadata))
			return conv, nil
		},
		rename: func(_ context.Context, id, title string) (wire.Conversation, error) {
			calls = append(calls, "rename "+id+" "+title)
			return conv, nil
		},
		generate: func(_ context.Context, id string) (wire.Conversation, error) {
			calls = append(calls, "generate "+id)
			return conv, nil
		},
		truncate: func(_ context.Context, id, messageID string, inclusive bool) (int, error) {
			calls = append(calls, "truncate "+id+" "+messageID)
			return 3, nil
		},
	}})
	// No body at all creates an untitled conversation.
	if got := s.call("POST", "/api/conversations", nil, nil); got.status != 200 || got.body["conversation"] == nil {
		t.Fatalf("create: %d %v", got.status, got.body)
	}
	s.call("POST", "/api/conversations", map[string]any{"title": "Plans", "metadata": map[string]int{"a": 1}}, nil)
	if got := s.call("PATCH", "/api/conversations/c1", map[string]any{}, nil); got.status != 400 {
		t.Fatalf("a patch that says nothing: %d %v", got.status, got.body)
	}
	s.call("PATCH", "/api/conversations/c1", map[string]any{"title": "New"}, nil)
	s.call("PATCH", "/api/conversations/c1", map[string]any{"generate": true}, nil)
	if got := s.call("POST", "/api/conversations/c1/messages/truncate", map[string]any{"messageId": "m2"}, nil); got.body["deletedCount"] != 3.0 {
		t.Fatalf("truncate: %d %v", got.status, got.body)
	}
	want := []string{"create  ", `create Plans {"a":1}`, "rename c1 New", "generate c1", "truncate c1 m2"}
	if strings.Join(calls, "|") != strings.Join(want, "|") {
		t.Fatalf("calls %q, want %q", calls, want)
	}
	for _, path := range []string{"/api/conversations/x", "/api/conversations/x/messages", "/api/conversations/x/display-messages",
		"/api/conversations/x/snapshot", "/api/runs/x/state"} {
		if got := s.call("GET", path, nil, nil); got.status != 404 {
			t.Errorf("GET %s: %d %v", path, got.status, got.body)
		}
	}
	if got := s.call("DELETE", "/api/conversations/x", nil, nil); got.status != 404 {
		t.Errorf("DELETE: %d", got.status)
	}
}

func TestSearchLimit(t *testing.T) {
	type query struct {
		q, cursor string
		limit     int
	}
	var got []query
	s := serveAPI(t, "", Options{Conversations: fakeConversations{
		search: func(_ context.Context, q string, limit int, cursor string) (wire.SearchResults, error) {
			got = append(got, query{q, cursor, limit})
			return wire.SearchResults{}, nil
		},
	}})
	for _, q := range []string{"q=a&limit=abc", "q=a&limit=0", "q=a&limit=101", "q=a&limit=-5", "q=a&limit="} {
		if res := s.call("GET", "/api/search?"+q, nil, nil); res.status != 400 || !strings.Contains(str(res.body["error"]), "limit must be") {
			t.Errorf("GET /api/search?%s: %d %v", q, res.status, res.body)
		}
	}
	if len(got) != 0 {
		t.Fatalf("refused queries reached the search: %v", got)
	}
	s.call("GET", "/api/search?q=hello&limit=100&cursor=abc", nil, nil)
	s.call("GET", "/api/search?q=hi", nil, nil)
	if len(got) != 2 || got[0] != (query{"hello", "abc", chat.SearchMaxLimit}) || got[1] != (query{"hi", "", 0}) {
		t.Fatalf("searched %+v", got)
	}
}
