package app

import (
	"context"

	"github.com/wispapp/wisp/app/api"
	"github.com/wispapp/wisp/app/proactive"
	"github.com/wispapp/wisp/app/settings"
	"github.com/wispapp/wisp/app/wire"
)

// proactiveSettings are the live settings the proactive service follows.
func (a *App) proactiveSettings() proactive.Settings {
	cfg := a.settings.Live()
	return proactive.Settings{
		AutonomyEnabled: cfg.Autonomy.Enabled, Interval: cfg.Autonomy.Interval(),
		MaxPerHour: cfg.Autonomy.MaxPerHour, Cooldown: cfg.Autonomy.Cooldown(),
		NotifyLongRuns: cfg.Terminal.NotifyLongRuns,
	}
}

// proactiveAPI serves reminders, the autonomy state and agent events straight from
// the service; only the autonomy switch changes the settings.
type proactiveAPI struct {
	*proactive.Service
	settings *settings.Settings
}

var _ api.Proactive = proactiveAPI{}

// SetAutonomy writes autonomy.enabled to the config file and applies it.
func (p proactiveAPI) SetAutonomy(ctx context.Context, enabled bool) (wire.AutonomyState, error) {
	if err := p.settings.SetAutonomy(ctx, enabled); err != nil {
		return wire.AutonomyState{}, err
	}
	return p.Autonomy(ctx)
}
