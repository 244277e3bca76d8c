package app

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/wispapp/wisp/app/config"
	"github.com/wispapp/wisp/runtime/llm"
)

// ollamaProbeEvery limits how often Wisp looks for a local Ollama when none answered.
const ollamaProbeEvery = 10 * time.Second

// models owns the model provider: the configured one, or a local Ollama found on its
// default address when nothing is configured. It is safe for concurrent use.
type models struct {
	ollamaURL string
	client    *http.Client
	log       *slog.Logger

	mu       sync.Mutex
	cfg      config.Model
	prov     llm.Provider
	provKey  string // what prov was built from
	detected []string
	probedAt time.Time
	probeOK  bool
}

func newModels(cfg config.Model, ollamaURL string, log *slog.Logger) *models {
	if ollamaURL == "" {
		ollamaURL = "http://127.0.0.1:11434"
	}
	return &models{cfg: cfg, ollamaURL: ollamaURL, log: log, client: &http.Client{Timeout: 2 * time.Second}}
}

// set replaces the model settings (the provider is rebuilt on next use if needed).
func (m *models) set(cfg config.Model) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.cfg = cfg
	m.probedAt = time.Time{} // look again
}

func (m *models) settings() config.Model {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.cfg
}

// resolved is what the settings amount to.
type resolved struct {
	kind, baseURL, model, apiKey string
	reason                       string // why chat cannot work; "" when it can
}

// Provider returns the provider to use now, or why there is none.
func (m *models) Provider() (llm.Provider, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	r := m.resolveLocked()
	if r.reason != "" {
		return nil, fmt.Errorf("%s", r.reason)
	}
	key := r.kind + "\x00" + r.baseURL + "\x00" + r.apiKey
	if m.prov == nil || m.provKey != key {
		p, err := llm.New(llm.Config{Kind: r.kind, BaseURL: r.baseURL, APIKey: r.apiKey})
		if err != nil {
			return nil, err
		}
		m.prov, m.provKey = p, key
	}
	return m.prov, nil
}

// CanRespond reports whether chat can be answered, and if not, why.
func (m *models) CanRespond() (bool, string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	r := m.resolveLocked()
	return r.reason == "", r.reason
}

// current returns the resolved provider kind, base URL and model name.
func (m *models) current() resolved {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.resolveLocked()
}

// Detected returns the models of a local Ollama, probing if it is time to.
func (m *models) Detected() (bool, []string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.probeLocked()
	return m.probeOK, append([]string(nil), m.detected...)
}

func (m *models) resolveLocked() resolved {
	c := m.cfg
	r := resolved{kind: c.Provider, baseURL: strings.TrimRight(c.BaseURL, "/"), model: c.Name, apiKey: c.APIKey}
	switch c.Provider {
	case "":
		m.probeLocked()
		if !m.probeOK || len(m.detected) == 0 {
			r.reason = "No model is set up yet: choose a provider in the model settings, or start Ollama on 127.0.0.1:11434."
			return r
		}
		r.kind, r.baseURL = "ollama", m.ollamaURL+"/v1"
		if r.model == "" {
			r.model = m.detected[0]
		}
	case "ollama":
		if r.model == "" {
			m.probeLocked()
			if len(m.detected) == 0 {
				r.reason = "Ollama has no model to use: pull one (ollama pull llama3.2) or name one in the model settings."
				return r
			}
			r.model = m.detected[0]
		}
	case "openai":
		if r.apiKey == "" && (r.baseURL == "" || strings.Contains(r.baseURL, "api.openai.com")) {
			r.reason = "Add an OpenAI API key in the model settings (or set OPENAI_API_KEY), or point the base URL at a local server."
		}
	case "anthropic":
		if r.apiKey == "" {
			r.reason = "Add an Anthropic API key in the model settings (or set ANTHROPIC_API_KEY)."
		}
	}
	if r.reason == "" && r.model == "" {
		r.reason = "Choose a model name in the model settings (or set WISP_MODEL)."
	}
	return r
}

// probeLocked asks the local Ollama for its models, at most every ollamaProbeEvery.
func (m *models) probeLocked() {
	if !m.probedAt.IsZero() && time.Since(m.probedAt) < ollamaProbeEvery {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 700*time.Millisecond)
	defer cancel()
	names, err := llm.DetectOllama(ctx, m.ollamaURL, m.client)
	m.probedAt = time.Now()
	wasOK := m.probeOK
	m.probeOK, m.detected = err == nil, names
	if m.probeOK && !wasOK {
		m.log.Info("found a local Ollama", "url", m.ollamaURL, "models", len(names))
	}
}
