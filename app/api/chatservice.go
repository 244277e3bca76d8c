package api

import (
	"context"
	"encoding/json"

	"github.com/wispapp/wisp/app/chat"
	"github.com/wispapp/wisp/app/dialect"
	"github.com/wispapp/wisp/app/wire"
	"github.com/wispapp/wisp/runtime"
	"github.com/wispapp/wisp/runtime/llm"
)

// Chat is what the chat routes need of the chat service (app/chat.Service): the
// conversations, the runs and their streams, and stateless completions. Tests put a
// fake behind it (chat.EndedRun and chat.Replay make the runs and streams). Every
// method that does I/O takes the request's context; AgentName reads a setting.
type Chat interface {
	AgentName() string

	Conversations(ctx context.Context) ([]wire.Conversation, error)
	CreateConversation(ctx context.Context, title string, metadata json.RawMessage) (wire.Conversation, error)
	Conversation(ctx context.Context, id string) (wire.Conversation, error)
	Rename(ctx context.Context, id, title string) (wire.Conversation, error)
	GenerateTitle(ctx context.Context, id string) (wire.Conversation, error)
	Delete(ctx context.Context, id string) error
	Messages(ctx context.Context, convID string, p chat.Page) (wire.MessageList, error)
	DisplayMessages(ctx context.Context, convID string) ([]wire.DisplayMessage, error)
	Truncate(ctx context.Context, convID, messageID string, inclusive bool) (int, error)
	Snapshot(ctx context.Context, convID string) (wire.Snapshot, error)
	Search(ctx context.Context, q string, limit int, cursor string) (wire.SearchResults, error)

	// Send starts a run answering a user message in a conversation.
	Send(ctx context.Context, convID string, in chat.SendInput) (*chat.Run, error)
	// Edit starts a run answering a new sibling of the user message messageID.
	Edit(ctx context.Context, convID, messageID string, in chat.SendInput) (*chat.Run, error)
	// Regenerate starts a run answering again what the assistant message messageID
	// answered; its reply becomes that message's sibling.
	Regenerate(ctx context.Context, convID, messageID string) (*chat.Run, error)
	// Subscribe follows a run from after event `after`, encoded by enc.
	Subscribe(ctx context.Context, runID string, after int64, enc dialect.Encoder) (*chat.Subscription, error)
	RunInfo(ctx context.Context, id string) (wire.RunInfo, error)
	RunState(ctx context.Context, id string) (wire.RunState, error)
	CancelRun(ctx context.Context, id string) error

	// Complete answers a stateless conversation (the /v1 APIs): history, then the
	// new user message msg (its text and images); nothing is stored.
	Complete(ctx context.Context, history []llm.Message, msg llm.Message, maxTokens int, onText func(string)) (runtime.Result, error)
}
