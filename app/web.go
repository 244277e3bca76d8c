package app

import (
	"net"

	"github.com/wispapp/wisp/app/web"
)

// registerWebActions offers the agent FETCH_URL and, while a search provider is
// set, WEB_SEARCH: both through the approval gate, on the live settings
// (docs/web.md).
func (a *App) registerWebActions(c *core) error {
	svc := web.New(web.Options{Settings: a.webSettings, OwnPort: a.apiPort, Version: a.opts.Version,
		Logger: a.log.With("component", "web")})
	if err := a.actions.Register(svc.FetchAction(c.approvals)); err != nil {
		return err
	}
	return a.actions.Register(svc.SearchAction(c.approvals))
}

// webSettings are the web settings now.
func (a *App) webSettings() web.Settings {
	w := a.settings.Live().Web
	return web.Settings{AllowHosts: w.AllowHosts,
		Search: web.Search{Provider: w.Search.Provider, BaseURL: w.Search.BaseURL, APIKey: w.Search.APIKey}}
}

// apiPort is the port the API listens on now (0 before it listens): FETCH_URL
// never reaches it on this machine, as the agent's shell cannot (confinement).
func (a *App) apiPort() int {
	s := a.svc.Load()
	if s == nil || s.ln == nil {
		return 0
	}
	if addr, ok := s.ln.Addr().(*net.TCPAddr); ok {
		return addr.Port
	}
	return 0
}
