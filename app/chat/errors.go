package chat

import (
	"errors"

	"github.com/wispapp/wisp/internal/fault"
)

var (
	errConversationNotFound = fault.NotFound.Errorf("conversation not found")
	errRunNotFound          = fault.NotFound.Errorf("run not found")
)

// errRunOver is the cause a run's context is cancelled with once the run has ended.
var errRunOver = errors.New("the run is over")
