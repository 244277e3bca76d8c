package llmtest

import (
	"errors"
	"strings"
)

// When matches requests by their text, for routes (Server.Handle) and for fakellm
// scripts' "when": a request matches when its system prompt contains SystemContains
// and its last user message contains LastUserContains; an empty condition matches
// anything. Matching is case-sensitive.
type When struct {
	SystemContains   string `json:"systemContains,omitempty"`
	LastUserContains string `json:"lastUserContains,omitempty"`
}

// Match reports whether r matches.
func (w When) Match(r Received) bool {
	return strings.Contains(r.System, w.SystemContains) && strings.Contains(r.LastUserText(), w.LastUserContains)
}

// Check fails for a When with no condition, which would match every request.
func (w When) Check() error {
	if w.SystemContains == "" && w.LastUserContains == "" {
		return errors.New("when: give systemContains or lastUserContains")
	}
	return nil
}

// Route answers every request w matches with t, before the queue, without using
// t up: Handle(w.Match, t).
func (s *Server) Route(w When, t Turn) {
	s.Handle(w.Match, func(Received) Turn { return t })
}
