package api

import (
	"net/http"

	"github.com/wispapp/wisp/terminal"
)

// Terminal is what the terminal routes serve.
type Terminal struct {
	Manager *terminal.Manager
	Gate    *TerminalGate
	// ConfigPath is shown to the user who has to turn shell access on.
	ConfigPath string
}

// TerminalGate decides whether shell runs may start and be typed into: shell access
// must be on, and when the API has a configured token, a terminal token is needed too.
type TerminalGate struct {
	enabled     bool
	tokenNeeded bool
	token       tokens // none when no terminal token is set
}

// NewTerminalGate builds the gate. apiTokenSet is whether the user configured an API
// token. The tokens Wisp makes for itself do not count: the desktop window's never
// leaves the app, and `wisp serve`'s is kept readable only by the user who runs it.
func NewTerminalGate(enabled, apiTokenSet bool, terminalToken string) *TerminalGate {
	return &TerminalGate{
		enabled: enabled, tokenNeeded: apiTokenSet, token: newTokens(terminalToken),
	}
}

// Enabled reports whether shell access is on.
func (g *TerminalGate) Enabled() bool { return g.enabled }

// TokenRequired reports whether a terminal token must accompany runs and keystrokes.
func (g *TerminalGate) TokenRequired() bool { return g.enabled && g.tokenNeeded }

// Check lets a run or a keystroke through, or says why not (403 or 401).
func (g *TerminalGate) Check(token string) error {
	if !g.enabled {
		return Errorf(http.StatusForbidden,
			`shell access is disabled: turn it on in Settings (or set "features": {"shellEnabled": true} in the config file), then restart Wisp`)
	}
	if !g.tokenNeeded {
		return nil
	}
	if len(g.token) == 0 {
		return Errorf(http.StatusForbidden,
			"shell access through a token-protected API also needs a terminal token: set WISP_TERMINAL_RUN_TOKEN (or api.terminalToken) and restart Wisp")
	}
	if !g.token.accepts(token) {
		return Errorf(http.StatusUnauthorized, "missing or invalid terminal token: send X-Terminal-Token")
	}
	return nil
}
