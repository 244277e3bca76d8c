package chat

import "github.com/wispapp/wisp/internal/ids"

// newID returns a random (version 4) UUID.
func newID() string { return ids.New() }
