package api

import (
	"context"
	"encoding/json"
	"net/http"

	"github.com/wispapp/wisp/app/chat"
	"github.com/wispapp/wisp/app/wire"
)

// Hub is the /ws hub as the API uses it. Its methods take no context: the socket is
// the request's own, and publishing never blocks (the hub queues).
type Hub interface {
	// Handle upgrades GET /ws; the hub authenticates sockets itself.
	Handle(w http.ResponseWriter, r *http.Request) error
	// Publish numbers and buffers an envelope and sends it to every client.
	Publish(env wire.Envelope) (wire.Envelope, error)
}

// Conversations are the conversation history, its search and the state of its runs
// (docs/chat.md, docs/search.md).
type Conversations interface {
	Conversations(ctx context.Context) ([]wire.Conversation, error)
	CreateConversation(ctx context.Context, title string, metadata json.RawMessage) (wire.Conversation, error)
	Conversation(ctx context.Context, id string) (wire.Conversation, error)
	Rename(ctx context.Context, id, title string) (wire.Conversation, error)
	// GenerateTitle asks the model for a title.
	GenerateTitle(ctx context.Context, id string) (wire.Conversation, error)
	Delete(ctx context.Context, id string) error
	// Messages is a page of the branch a conversation shows (docs/chat.md#branches).
	Messages(ctx context.Context, id string, p chat.Page) (wire.MessageList, error)
	// SetBranch shows the branch through messageID and answers its newest page.
	SetBranch(ctx context.Context, id, messageID string) (wire.MessageList, error)
	DisplayMessages(ctx context.Context, id string) ([]wire.DisplayMessage, error)
	// Snapshot is the conversation as a client renders it before resuming a stream.
	Snapshot(ctx context.Context, id string) (wire.Snapshot, error)
	// Truncate deletes the messages after messageID (and it, when inclusive).
	Truncate(ctx context.Context, id, messageID string, inclusive bool) (int, error)
	// Search finds messages; limit 0 is the default, cursor "" the first page.
	Search(ctx context.Context, q string, limit int, cursor string) (wire.SearchResults, error)
	RunState(ctx context.Context, runID string) (wire.RunState, error)
}
