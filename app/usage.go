package app

import (
	"github.com/wispapp/wisp/app/config"
	"github.com/wispapp/wisp/app/store"
	"github.com/wispapp/wisp/app/usage"
)

// newUsage builds the usage recorder on the store: it costs each model call group at
// the live prices, and names the provider the model settings choose (with none
// chosen, Wisp talks to a local Ollama).
func (a *App) newUsage(st *store.Store) *usage.Service {
	return usage.New(usage.Options{
		Store:  st,
		Prices: func() map[string]config.Price { return a.settings.Live().Prices },
		Provider: func() string {
			if p := a.models.settings().Provider; p != "" {
				return p
			}
			return "ollama"
		},
		Clock:  a.opts.Clock,
		Logger: a.log.With("component", "usage"),
	})
}
