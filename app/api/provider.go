package api

import (
	"context"
	"net/http"
)

// ProviderInfo is what the model setup screen shows. The API key never leaves Wisp.
type ProviderInfo struct {
	Provider   string `json:"provider"`
	BaseURL    string `json:"baseURL"`
	Model      string `json:"model"`
	HasAPIKey  bool   `json:"hasApiKey"`
	CanRespond bool   `json:"canRespond"`
	Reason     string `json:"reason,omitempty"`
	// Vision says whether the model sees images ("yes", "no"; empty: unknown), so
	// the composer can say so before an image is sent (docs/chat.md#attachments).
	Vision string `json:"vision,omitempty"`
	Ollama struct {
		Detected bool     `json:"detected"`
		Models   []string `json:"models"`
	} `json:"ollama"`
	// EnvOverrides names settings the environment overrides (saving them changes the
	// file but not this process).
	EnvOverrides []string `json:"envOverrides,omitempty"`
}

// ProviderSettings is a choice made on the setup screen. An empty APIKey keeps the
// stored key.
type ProviderSettings struct {
	Provider string `json:"provider"`
	BaseURL  string `json:"baseURL"`
	Model    string `json:"model"`
	APIKey   string `json:"apiKey"`
}

// Providers reads and changes the model settings.
type Providers interface {
	Info(ctx context.Context) ProviderInfo
	Configure(ctx context.Context, settings ProviderSettings) (ProviderInfo, error)
}

func (s *Server) getProvider(w http.ResponseWriter, r *http.Request) error {
	return writeJSON(w, http.StatusOK, s.providers.Info(r.Context()))
}

func (s *Server) putProvider(w http.ResponseWriter, r *http.Request) error {
	var req ProviderSettings
	if err := decodeJSON(w, r, &req); err != nil {
		return err
	}
	switch req.Provider {
	case "openai", "anthropic", "ollama":
	default:
		return Errorf(http.StatusBadRequest, "provider must be openai, anthropic or ollama")
	}
	if len(req.BaseURL) > 2048 || len(req.Model) > 256 || len(req.APIKey) > 4096 {
		return Errorf(http.StatusBadRequest, "a setting is too long")
	}
	info, err := s.providers.Configure(r.Context(), req)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, info)
}
