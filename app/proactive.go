package app

import (
	"context"

	"github.com/wispapp/wisp/app/api"
	"github.com/wispapp/wisp/app/config"
	"github.com/wispapp/wisp/app/proactive"
	"github.com/wispapp/wisp/app/wire"
)

// proactiveSettings are the live settings the proactive service follows.
func (a *App) proactiveSettings() proactive.Settings {
	cfg := a.liveConfig()
	return proactive.Settings{
		AutonomyEnabled: cfg.Autonomy.Enabled, Interval: cfg.Autonomy.Interval(),
		MaxPerHour: cfg.Autonomy.MaxPerHour, Cooldown: cfg.Autonomy.Cooldown(),
		NotifyLongRuns: cfg.Terminal.NotifyLongRuns,
	}
}

// proactiveAPI serves reminders, the autonomy state and agent events straight from
// the service; only the autonomy switch needs the app, which owns the config file.
type proactiveAPI struct {
	*proactive.Service
	a *App
}

var _ api.Proactive = proactiveAPI{}

// SetAutonomy writes autonomy.enabled to the config file and applies it.
func (p proactiveAPI) SetAutonomy(ctx context.Context, enabled bool) (wire.AutonomyState, error) {
	err := p.a.changeConfig(func(f *config.File) error {
		f.Config.Autonomy.Enabled = enabled
		return nil
	})
	if err != nil {
		return wire.AutonomyState{}, err
	}
	return p.Autonomy(ctx)
}
