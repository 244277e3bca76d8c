package proactive

import "github.com/wispapp/wisp/internal/httperr"

// Error is a failure the API shows with a status code.
type Error = httperr.Error

var errorf = httperr.New
