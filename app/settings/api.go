package settings

import (
	"context"

	"github.com/wispapp/wisp/app/config"
	"github.com/wispapp/wisp/internal/fault"
)

// Config is the file's settings as the API shows them: no secret's value, where the
// secrets are kept, what the environment or the command line overrides, and what
// waits for a restart.
func (s *Settings) Config(context.Context) ConfigView {
	sn := s.snap.Load()
	file := sn.file.Config
	withSecrets, store := s.kept.fill(sn.file), s.kept.view(sn.file)
	public, err := config.Public(file)
	if err != nil {
		public = map[string]any{} // a Config always encodes; keep the answer well-formed
	}
	if d, ok := public["desktop"].(map[string]any); ok && s.opts.Autostart != nil {
		d["openAtLogin"] = s.opts.Autostart.On() // the entry on disk, not the file's wish
	}
	overrides := config.EnvOverrides(file, s.opts.Getenv)
	if s.opts.Host != "" {
		overrides["server.host"] = "--host"
	}
	if s.opts.Port >= 0 {
		overrides["server.port"] = "--port"
	}
	return ConfigView{
		Path: s.opts.Path, Config: public, Secrets: config.SecretsSet(withSecrets), SecretStore: store, Fields: config.Fields(),
		Overrides: overrides, ConfigError: sn.err,
		PendingRestart: len(sn.reasons) > 0, PendingRestartReasons: sn.reasons,
	}
}

// PatchConfig applies a JSON merge patch to the file, saves and applies it.
func (s *Settings) PatchConfig(ctx context.Context, patch map[string]any) (ConfigView, error) {
	if err := s.Change(ctx, func(f *config.File) error { return f.Patch(patch) }); err != nil {
		return ConfigView{}, err
	}
	if err := s.syncAutostart(patch); err != nil {
		return ConfigView{}, err
	}
	return s.Config(ctx), nil
}

// syncAutostart makes the entry match the saved setting when patch named it:
// switching it on again after the entry was deleted by hand writes the entry,
// though the file already said on.
func (s *Settings) syncAutostart(patch map[string]any) error {
	section, named := patch["desktop"]
	if d, ok := section.(map[string]any); ok {
		_, named = d["openAtLogin"]
	}
	if !named || s.opts.Autostart == nil {
		return nil
	}
	if err := s.opts.Autostart.Set(s.File().Desktop.OpenAtLogin); err != nil {
		return fault.Unavailable.Errorf("the setting is saved, but the autostart entry could not be changed: %v", err)
	}
	return nil
}

// SetShell turns shell access on or off in the file.
func (s *Settings) SetShell(ctx context.Context, enabled bool) (ShellView, error) {
	err := s.Change(ctx, func(f *config.File) error {
		f.Config.Features.ShellEnabled = enabled
		return nil
	})
	if err != nil {
		return ShellView{}, err
	}
	reasons, _ := s.Pending()
	return ShellView{Enabled: enabled, PendingRestart: len(reasons) > 0, PendingRestartReasons: reasons}, nil
}

// SetAutonomy writes autonomy.enabled to the file and applies it.
func (s *Settings) SetAutonomy(ctx context.Context, enabled bool) error {
	return s.Change(ctx, func(f *config.File) error {
		f.Config.Autonomy.Enabled = enabled
		return nil
	})
}

// ChangeModel changes the model settings in the file and applies them at once.
func (s *Settings) ChangeModel(ctx context.Context, change func(*config.Model)) error {
	return s.Change(ctx, func(f *config.File) error {
		change(&f.Config.Model)
		return f.Config.Validate()
	})
}
