package chat

import (
	"net/http"

	"github.com/wispapp/wisp/internal/httperr"
)

// Error is a failure the API shows with a status code.
type Error = httperr.Error

var errorf = httperr.New

var (
	errConversationNotFound = errorf(http.StatusNotFound, "conversation not found")
	errRunNotFound          = errorf(http.StatusNotFound, "run not found")
)
