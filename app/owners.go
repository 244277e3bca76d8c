package app

import (
	"errors"
	"slices"

	"github.com/wispapp/wisp/app/config"
	"github.com/wispapp/wisp/app/proactive"
)

// The owners of the settings: each verifies and commits the changes to its own (see
// config.Committer). What an owner cannot apply while Wisp runs waits for a restart.

// ownSettings registers the owners that exist from New on; the services assembled
// at Start register theirs then (ownServiceSettings).
func (a *App) ownSettings() error {
	s := a.settings
	return errors.Join(
		s.Own("model", a.models, config.Section("model")...),
		s.Own("character", readAtUse{}, config.Section("character")...),
		s.Own("ui", readAtUse{}, config.Section("ui")...),
		s.Own("memory", readAtUse{}, config.Section("memory")...),
		s.Own("attachments", readAtUse{}, config.Section("attachments")...),
		s.Own("voice", readAtUse{}, config.Section("voice")...),
		s.Own("files", readAtUse{}, config.Section("files")...),
		s.Own("web", readAtUse{}, config.Section("web")...),
		s.Own("prices", readAtUse{}, "prices"),
		s.Own("autostart", a.autostart(), "desktop.openAtLogin"),
		s.Own("services", restartOnly{a.checkServable}, slices.Concat(config.Section("server"), config.Section("api"),
			[]string{"features.shellEnabled", "terminal.maxConcurrent", "terminal.maxDurationMs", "terminal.cwd"})...),
	)
}

// ownServiceSettings registers the MCP servers and the proactive service as the
// owners of their settings and checks that every setting now has an owner.
func (a *App) ownServiceSettings(c *core) error {
	s := a.settings
	if err := errors.Join(
		s.Own("mcp", mcpOwner{c.mcp}, "mcpServers"),
		s.Own("proactive", proactiveOwner{c.proactive}, append(config.Section("autonomy"), "terminal.notifyLongRuns")...),
	); err != nil {
		return err
	}
	return s.CheckOwned()
}

// VerifyConfig accepts any model settings: Validate has checked them.
func (m *models) VerifyConfig(_, _ config.Config) error { return nil }

// CommitConfig makes the next reply use the new model settings.
func (m *models) CommitConfig(_, to config.Config) bool {
	m.set(to.Model)
	return true
}

// readAtUse owns settings that are read each time they are used: the character on
// every turn, the theme by the UI when it hears config-changed, the memory's bound
// and autoSave at each change and proposal, the prices whenever usage is recorded,
// the attachments' limits at each upload and message.
type readAtUse struct{}

func (readAtUse) VerifyConfig(_, _ config.Config) error { return nil }
func (readAtUse) CommitConfig(_, _ config.Config) bool  { return true }

// restartOnly owns what the running services were built from (the listener, the
// guard, shell access and the terminal's limits): a change waits for a restart. It
// refuses settings that would expose the API without a token.
type restartOnly struct{ servable func(config.Config) error }

func (r restartOnly) VerifyConfig(_, to config.Config) error { return r.servable(to) }
func (restartOnly) CommitConfig(_, _ config.Config) bool     { return false }

// proactiveOwner applies the autonomy loop's settings at once (the loop starts its
// interval again); the long-run notice switch is read at each run's end.
type proactiveOwner struct{ p *proactive.Service }

func (proactiveOwner) VerifyConfig(_, _ config.Config) error { return nil }

func (o proactiveOwner) CommitConfig(_, _ config.Config) bool {
	o.p.SettingsChanged()
	return true
}

// proactiveSettings are the live settings the proactive service follows.
func (a *App) proactiveSettings() proactive.Settings {
	cfg := a.settings.Live()
	return proactive.Settings{
		AutonomyEnabled: cfg.Autonomy.Enabled, Interval: cfg.Autonomy.Interval(),
		MaxPerHour: cfg.Autonomy.MaxPerHour, Cooldown: cfg.Autonomy.Cooldown(),
		NotifyLongRuns: cfg.Terminal.NotifyLongRuns,
	}
}
