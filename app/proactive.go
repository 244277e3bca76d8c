package app

import (
	"context"
	"fmt"

	"github.com/wispapp/wisp/app/api"
	"github.com/wispapp/wisp/app/config"
	"github.com/wispapp/wisp/app/proactive"
	"github.com/wispapp/wisp/runtime"
)

// startProactive starts reminders (delivering those that came due while Wisp was
// closed), the autonomy loop and terminal notices, and offers SCHEDULE_REMINDER.
func (a *App) startProactive(agent *runtime.Agent) error {
	a.proactive = proactive.New(proactive.Options{
		Store: a.store, Hub: a.hub, Agent: agent, Settings: a.proactiveSettings,
		CanRespond: a.models.CanRespond, Busy: a.chat.Busy, Clock: a.opts.Clock,
		Logger: a.log.With("component", "proactive"),
	})
	if err := a.actions.Register(a.proactive.ReminderAction()); err != nil {
		return fmt.Errorf("start proactive: %w", err)
	}
	a.proactive.Start()
	return nil
}

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
func (p proactiveAPI) SetAutonomy(ctx context.Context, enabled bool) (proactive.AutonomyState, error) {
	err := p.a.changeConfig(func(f *config.File) error {
		f.Config.Autonomy.Enabled = enabled
		return nil
	})
	if err != nil {
		return proactive.AutonomyState{}, err
	}
	return p.Autonomy(ctx)
}
