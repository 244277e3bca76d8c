package chat

import "github.com/wispapp/wisp/internal/fault"

var (
	errConversationNotFound = fault.NotFound.Errorf("conversation not found")
	errRunNotFound          = fault.NotFound.Errorf("run not found")
)
