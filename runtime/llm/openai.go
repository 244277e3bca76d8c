package llm

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"net/url"
	"strings"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
)

// placeholderKey is sent when no key is configured: local servers (Ollama, LM Studio,
// llama.cpp) ignore it, and the SDK wants one.
const placeholderKey = "wisp-no-key"

// OpenAI streams chat turns from an OpenAI-compatible Chat Completions endpoint:
// OpenAI itself, Ollama, LM Studio, llama.cpp's server, OpenRouter, DeepSeek.
//
// The token limit is sent as max_completion_tokens to api.openai.com (whose reasoning
// models reject max_tokens) and as max_tokens everywhere else, since local servers
// and most gateways only know the older name. Reasoning is read from the non-standard
// delta fields reasoning_content (DeepSeek, llama.cpp, LM Studio) and reasoning
// (Ollama, OpenRouter); it is never sent back, as DeepSeek rejects it.
type OpenAI struct {
	name                string
	client              openai.Client
	maxCompletionTokens bool
}

// NewOpenAI returns a provider for cfg; cfg.Kind "ollama" only changes its name and
// default base URL.
func NewOpenAI(cfg Config) *OpenAI {
	if strings.EqualFold(strings.TrimSpace(cfg.Kind), ProviderOllama) {
		cfg.Kind = ProviderOllama
	} else {
		cfg.Kind = ProviderOpenAI
	}
	cfg = cfg.withDefaults()
	key := cfg.APIKey
	if key == "" {
		key = placeholderKey
	}
	return &OpenAI{
		name: cfg.Kind,
		client: openai.NewClient(
			option.WithBaseURL(cfg.BaseURL),
			option.WithAPIKey(key),
			option.WithHTTPClient(cfg.HTTPClient),
			option.WithMaxRetries(0), // callers decide whether to retry
		),
		maxCompletionTokens: isOpenAIHost(cfg.BaseURL),
	}
}

// Name is "openai" or "ollama".
func (p *OpenAI) Name() string { return p.name }

// Stream sends req and streams the reply; see Provider.
func (p *OpenAI) Stream(ctx context.Context, req Request, onDelta func(Delta)) (Response, error) {
	if onDelta == nil {
		onDelta = func(Delta) {}
	}
	params, err := p.params(req)
	if err != nil {
		return Response{}, &Error{Kind: KindBadRequest, Provider: p.name, Message: err.Error(), Err: err}
	}
	x := &exchange{provider: p.name}
	var raw *http.Response
	err = p.client.Post(ctx, "chat/completions", params, &raw, option.WithJSONSet("stream", true), option.WithMiddleware(x.middleware))
	if err != nil {
		return Response{}, x.fail(ctx, err)
	}
	defer raw.Body.Close()

	acc := newChunkAccumulator(onDelta)
	events := newSSEReader(raw.Body)
	var chunk openAIChunk
	for {
		data, ok := events.next()
		if !ok {
			if err := events.err(); err != nil {
				return Response{}, x.fail(ctx, err)
			}
			break
		}
		if bytes.HasPrefix(data, []byte("[DONE]")) {
			break
		}
		if err := decodeOpenAIChunk(data, &chunk); err != nil {
			return Response{}, x.fail(ctx, err)
		}
		if chunk.Error != nil {
			if ctx.Err() == nil {
				return Response{}, x.eventError(data, "server_error")
			}
			return Response{}, x.fail(ctx, errors.New("received error while streaming"))
		}
		acc.add(&chunk)
	}
	if ctx.Err() != nil {
		return Response{}, ctx.Err()
	}
	if acc.finish == "" {
		return Response{}, x.truncated()
	}
	return acc.response(), nil
}

// isOpenAIHost reports whether baseURL is OpenAI's own API.
func isOpenAIHost(baseURL string) bool {
	u, err := url.Parse(baseURL)
	return err == nil && u.Hostname() == "api.openai.com"
}
