package app

import (
	"github.com/wispapp/wisp/app/api"
	"github.com/wispapp/wisp/app/config"
)

// settingsAPI serves the settings view and the restart button.
type settingsAPI struct{ a *App }

var _ api.Settings = settingsAPI{}

func (s settingsAPI) Config() api.ConfigView {
	a := s.a
	a.conf.mu.Lock()
	file := a.conf.file.Config
	withSecrets, store := a.kept.fill(a.conf.file), a.kept.view(a.conf.file)
	reasons, configErr := a.conf.reasons.List(), a.conf.err
	a.conf.mu.Unlock()
	public, err := config.Public(file)
	if err != nil {
		public = map[string]any{} // a Config always encodes; keep the answer well-formed
	}
	a.showAutostart(public) // the entry on disk, not the file's wish
	overrides := config.EnvOverrides(file, a.opts.Getenv)
	if a.opts.Host != "" {
		overrides["server.host"] = "--host"
	}
	if a.opts.Port >= 0 {
		overrides["server.port"] = "--port"
	}
	return api.ConfigView{
		Path: a.configPath, Config: public, Secrets: config.SecretsSet(withSecrets), SecretStore: store, Fields: config.Fields(),
		Overrides: overrides, ConfigError: configErr,
		PendingRestart: len(reasons) > 0, PendingRestartReasons: reasons,
	}
}

func (s settingsAPI) PatchConfig(patch map[string]any) (api.ConfigView, error) {
	if err := s.a.changeConfig(func(f *config.File) error { return f.Patch(patch) }); err != nil {
		return api.ConfigView{}, err
	}
	if err := s.a.syncAutostartAfterPatch(patch); err != nil {
		return api.ConfigView{}, err
	}
	return s.Config(), nil
}

func (s settingsAPI) SetShell(enabled bool) (api.ShellView, error) {
	err := s.a.changeConfig(func(f *config.File) error {
		f.Config.Features.ShellEnabled = enabled
		return nil
	})
	if err != nil {
		return api.ShellView{}, err
	}
	reasons, _ := s.a.pending()
	return api.ShellView{Enabled: enabled, PendingRestart: len(reasons) > 0, PendingRestartReasons: reasons}, nil
}

func (s settingsAPI) Restart() (api.RestartResult, error) {
	if err := s.a.Restart(); err != nil {
		return api.RestartResult{}, err
	}
	return s.a.restartResult(), nil
}
