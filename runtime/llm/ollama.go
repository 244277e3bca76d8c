package llm

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
)

// DefaultOllamaRoot is where a local Ollama listens.
const DefaultOllamaRoot = "http://127.0.0.1:11434"

// DetectOllama asks the Ollama server at rootURL ("" means DefaultOllamaRoot; a
// trailing "/v1" is ignored) which models it has, through GET <root>/api/tags.
// It fails with an *Error when nothing answers or what answers is not Ollama, or with
// ctx's error when ctx ends first.
func DetectOllama(ctx context.Context, rootURL string, client *http.Client) ([]string, error) {
	root := strings.TrimRight(strings.TrimSpace(rootURL), "/")
	root = strings.TrimSuffix(root, "/v1")
	if root == "" {
		root = DefaultOllamaRoot
	}
	if client == nil {
		client = http.DefaultClient
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, root+"/api/tags", nil)
	if err != nil {
		return nil, &Error{Kind: KindUnavailable, Provider: ProviderOllama, Message: err.Error(), Err: err}
	}
	res, err := client.Do(req)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, &Error{Kind: KindUnavailable, Provider: ProviderOllama, Message: connectCause(err), Err: err}
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		return nil, notOllama(root, fmt.Errorf("GET /api/tags: HTTP %d", res.StatusCode))
	}
	var tags struct {
		Models *[]struct {
			Name  string `json:"name"`
			Model string `json:"model"`
		} `json:"models"`
	}
	if err := json.NewDecoder(io.LimitReader(res.Body, 8<<20)).Decode(&tags); err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, notOllama(root, fmt.Errorf("decode /api/tags: %w", err))
	}
	if tags.Models == nil {
		return nil, notOllama(root, fmt.Errorf("/api/tags has no models list"))
	}
	names := make([]string, 0, len(*tags.Models))
	for _, m := range *tags.Models {
		name := m.Name
		if name == "" {
			name = m.Model
		}
		names = append(names, name)
	}
	return names, nil
}

func notOllama(root string, err error) *Error {
	return &Error{
		Kind:     KindUnavailable,
		Provider: ProviderOllama,
		Message:  "the server at " + root + " does not look like Ollama",
		Err:      err,
	}
}
