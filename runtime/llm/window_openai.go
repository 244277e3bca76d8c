package llm

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
)

// openAIModel is what a model list may say of a model's window, by server:
// loaded_context_length and max_context_length (LM Studio's /api/v0/models: as
// loaded, and at most), max_model_len (vLLM), context_length (OpenRouter, many
// others, and OpenRouter's top_provider), context_window (Groq).
type openAIModel struct {
	ID                  string          `json:"id"`
	LoadedContextLength json.RawMessage `json:"loaded_context_length"`
	MaxModelLen         json.RawMessage `json:"max_model_len"`
	ContextLength       json.RawMessage `json:"context_length"`
	ContextWindow       json.RawMessage `json:"context_window"`
	MaxContextLength    json.RawMessage `json:"max_context_length"`
	TopProvider         *struct {
		ContextLength json.RawMessage `json:"context_length"`
	} `json:"top_provider"`
}

// window is the first plausible field, the window as run before the window at most.
func (m openAIModel) window() int {
	fields := []json.RawMessage{m.LoadedContextLength, m.MaxModelLen, m.ContextLength, m.ContextWindow, m.MaxContextLength}
	if m.TopProvider != nil {
		fields = append(fields, m.TopProvider.ContextLength)
	}
	for _, raw := range fields {
		if n := windowNumber(raw); n > 0 {
			return n
		}
	}
	return 0
}

// openAIWindow looks for model in the server's model lists, then in the table of
// OpenAI's own models when the server is OpenAI's.
func openAIWindow(ctx context.Context, cfg Config, model string) (Window, error) {
	if sameHost(cfg.BaseURL, "api.openai.com") { // its list says nothing of windows
		if n := openAITable(model); n > 0 {
			return Window{n, WindowTable}, nil
		}
		return Window{}, nil
	}
	header := http.Header{}
	if cfg.APIKey != "" {
		header.Set("Authorization", "Bearer "+cfg.APIKey)
	}
	n, err := listedWindow(ctx, cfg, cfg.BaseURL+"/models", header, model)
	if n > 0 {
		return Window{n, WindowListed}, nil
	}
	var unavailable *Error
	if errors.As(err, &unavailable) && unavailable.Kind == KindUnavailable {
		return Window{}, err
	}
	// LM Studio lists the loaded context in its own API beside /v1.
	if root, ok := strings.CutSuffix(cfg.BaseURL, "/v1"); ok {
		if n, _ := listedWindow(ctx, cfg, root+"/api/v0/models", header, model); n > 0 {
			return Window{n, WindowListed}, nil
		}
	}
	if errors.Is(err, errNotFound) {
		err = nil
	}
	return Window{}, err
}

// listedWindow is model's window in the list at url, 0 when it is not there or has
// none.
func listedWindow(ctx context.Context, cfg Config, url string, header http.Header, model string) (int, error) {
	var list struct {
		Data []openAIModel `json:"data"`
	}
	if err := askJSON(ctx, cfg, http.MethodGet, url, nil, header, &list); err != nil {
		return 0, err
	}
	for _, m := range list.Data {
		if m.ID == model {
			return m.window(), nil
		}
	}
	return 0, nil
}

// openAITable is the context window of OpenAI's models by family, from OpenAI's
// model pages (platform.openai.com/docs/models): the longest matching prefix wins.
func openAITable(model string) int {
	table := []struct {
		prefix string
		window int
	}{
		{"gpt-5", 400_000},
		{"gpt-4.1", 1_047_576},
		{"gpt-4o", 128_000},
		{"chatgpt-4o", 128_000},
		{"gpt-4-turbo", 128_000},
		{"gpt-4-1106", 128_000},
		{"gpt-4-0125", 128_000},
		{"gpt-4", 8_192},
		{"gpt-3.5-turbo", 16_385},
		{"o1-mini", 128_000},
		{"o1", 200_000},
		{"o3", 200_000},
		{"o4-mini", 200_000},
	}
	return longestPrefix(strings.ToLower(model), table)
}

// anthropicWindow is the context window of Anthropic's models by family, from
// Anthropic's "Models overview" (docs.anthropic.com/en/docs/about-claude/models):
// every Claude 3 and 4 model holds 200K tokens by default (a 1M window is a beta
// that a request must ask for); Claude 2.1 200K, Claude 2.0 and Instant 100K.
func anthropicWindow(model string) int {
	table := []struct {
		prefix string
		window int
	}{
		{"claude-2.0", 100_000},
		{"claude-instant", 100_000},
		{"claude-", 200_000},
	}
	return longestPrefix(strings.ToLower(model), table)
}

func longestPrefix(name string, table []struct {
	prefix string
	window int
}) int {
	best, n := 0, 0
	for _, row := range table {
		if strings.HasPrefix(name, row.prefix) && len(row.prefix) > best {
			best, n = len(row.prefix), row.window
		}
	}
	return n
}
