package app

import (
	"context"
	"net/url"
	"strings"

	"github.com/wispapp/wisp/internal/fault"
	"github.com/wispapp/wisp/internal/jsonlist"

	"github.com/wispapp/wisp/app/api"
	"github.com/wispapp/wisp/app/config"
	"github.com/wispapp/wisp/app/settings"
	"github.com/wispapp/wisp/runtime/llm"
)

// providers serves the model setup screen.
type providers struct {
	models   *models
	settings *settings.Settings
	getenv   config.Getenv
	// vision is whether the model in use sees images (App.vision).
	vision func(context.Context) llm.Vision
}

var _ api.Providers = providers{}

func (p providers) Info(ctx context.Context) api.ProviderInfo {
	m := p.models
	cfg := m.settings()
	r := m.current()
	info := api.ProviderInfo{
		Provider: cfg.Provider, BaseURL: cfg.BaseURL, Model: cfg.Name, HasAPIKey: cfg.APIKey != "",
		CanRespond: r.reason == "", Reason: r.reason,
	}
	if cfg.Provider == "" && r.reason == "" {
		info.Provider, info.BaseURL, info.Model = r.kind, r.baseURL, r.model // the detected Ollama
	}
	if p.vision != nil && r.reason == "" {
		switch p.vision(ctx) {
		case llm.VisionYes:
			info.Vision = "yes"
		case llm.VisionNo:
			info.Vision = "no"
		}
	}
	detected, models := m.Detected()
	info.Ollama.Detected, info.Ollama.Models = detected, jsonlist.NonNil(models)
	for _, k := range []string{"WISP_PROVIDER", "WISP_BASE_URL", "WISP_MODEL", "OPENAI_API_KEY", "ANTHROPIC_API_KEY"} {
		if p.getenv(k) != "" {
			info.EnvOverrides = append(info.EnvOverrides, k)
		}
	}
	return info
}

// Configure saves the model settings to the config file and applies them at once: the
// setup screen is how a user gets chat working, so it must not wait for a restart.
func (p providers) Configure(ctx context.Context, s api.ProviderSettings) (api.ProviderInfo, error) {
	base := strings.TrimSpace(s.BaseURL)
	if base != "" {
		u, err := url.Parse(base)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return api.ProviderInfo{}, fault.Invalid.Errorf("base URL must be an http:// or https:// URL")
		}
	}
	if err := p.settings.ChangeModel(ctx, func(m *config.Model) {
		if k := strings.TrimSpace(s.APIKey); k != "" {
			m.APIKey = k
		} else if m.Provider != s.Provider {
			m.APIKey = "" // a key belongs to its provider
		}
		m.Provider, m.BaseURL, m.Name = s.Provider, base, strings.TrimSpace(s.Model)
	}); err != nil {
		return api.ProviderInfo{}, err
	}
	return p.Info(ctx), nil
}
