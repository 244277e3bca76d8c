package llm

import (
	"fmt"
	"net/http"
	"strings"
)

// The providers a Config.Kind can name.
const (
	ProviderOpenAI    = "openai"    // OpenAI or any OpenAI-compatible server (LM Studio, llama.cpp, OpenRouter)
	ProviderOllama    = "ollama"    // Ollama through its OpenAI-compatible API
	ProviderAnthropic = "anthropic" // Anthropic's Messages API
)

// The default base URLs of each kind.
const (
	DefaultOpenAIURL    = "https://api.openai.com/v1"
	DefaultOllamaURL    = "http://127.0.0.1:11434/v1"
	DefaultAnthropicURL = "https://api.anthropic.com"
)

// Config says which model provider to talk to and how.
type Config struct {
	Kind string // ProviderOpenAI, ProviderOllama or ProviderAnthropic; "" means ProviderOpenAI
	// BaseURL is the API root: ".../v1" for OpenAI-compatible servers, the host for
	// Anthropic. "" means the kind's default.
	BaseURL string
	APIKey  string // may be empty for local servers
	// HTTPClient sends the requests; nil means a shared default. It should have no
	// overall Timeout: a streamed reply can take minutes, and Stream's context bounds it.
	HTTPClient *http.Client
}

// withDefaults fills the kind and base URL and trims the base URL's trailing slash.
func (c Config) withDefaults() Config {
	c.Kind = strings.ToLower(strings.TrimSpace(c.Kind))
	if c.Kind == "" {
		c.Kind = ProviderOpenAI
	}
	c.BaseURL = strings.TrimRight(strings.TrimSpace(c.BaseURL), "/")
	if c.BaseURL == "" {
		c.BaseURL = DefaultBaseURL(c.Kind)
	}
	if c.HTTPClient == nil {
		c.HTTPClient = http.DefaultClient
	}
	return c
}

// DefaultBaseURL is the base URL used for kind when Config.BaseURL is empty, or "" for
// an unknown kind.
func DefaultBaseURL(kind string) string {
	switch kind {
	case ProviderOpenAI:
		return DefaultOpenAIURL
	case ProviderOllama:
		return DefaultOllamaURL
	case ProviderAnthropic:
		return DefaultAnthropicURL
	}
	return ""
}

// New returns the provider cfg.Kind names.
func New(cfg Config) (Provider, error) {
	cfg = cfg.withDefaults()
	switch cfg.Kind {
	case ProviderOpenAI, ProviderOllama:
		return NewOpenAI(cfg), nil
	case ProviderAnthropic:
		return NewAnthropic(cfg), nil
	}
	return nil, fmt.Errorf("unknown model provider %q (want %s, %s or %s)", cfg.Kind, ProviderOpenAI, ProviderOllama, ProviderAnthropic)
}

var (
	_ Provider = (*OpenAI)(nil)
	_ Provider = (*Anthropic)(nil)
)
