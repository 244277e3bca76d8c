package llm

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/url"
	"strings"

	"github.com/openai/openai-go/v3"
)

// placeholderKey is sent when no key is configured: local servers (Ollama, LM Studio,
// llama.cpp) ignore it, and some gateways refuse a request without one.
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
	endpoint            string // …/chat/completions
	key                 string
	http                *http.Client
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
		name:                cfg.Kind,
		endpoint:            cfg.BaseURL + "/chat/completions",
		key:                 key,
		http:                cfg.HTTPClient,
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
	images := &imageSlots{dataURL: true}
	params, err := p.params(req, images)
	if err != nil {
		return Response{}, &Error{Kind: KindBadRequest, Provider: p.name, Message: err.Error(), Err: err}
	}
	x := &exchange{provider: p.name}
	raw, err := p.send(ctx, params, images, x)
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

// send posts the request for a streamed reply and returns the response once it
// answered with a success status (x.middleware turns any other into an *Error). The
// SDK's types build the body; the request itself is plain net/http, as the SDK's
// request machinery cost more CPU per reply than the rest of the exchange. Images
// are encoded into the body as it is written (see imageSlots).
func (p *OpenAI) send(ctx context.Context, params openai.ChatCompletionNewParams, images *imageSlots, x *exchange) (*http.Response, error) {
	body, err := json.Marshal(params)
	if err != nil || len(body) < 2 || body[len(body)-1] != '}' {
		return nil, &Error{Kind: KindBadRequest, Provider: p.name, Message: "cannot encode the request", Err: err}
	}
	body = append(body[:len(body)-1], `,"stream":true}`...)
	if string(body[:2]) == "{," {
		body = append(body[:1], body[2:]...) // the params were {}
	}
	spliced, err := images.splice(body)
	if err != nil {
		return nil, &Error{Kind: KindBadRequest, Provider: p.name, Message: "cannot encode the request", Err: err}
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, p.endpoint, nil)
	if err != nil {
		return nil, &Error{Kind: KindBadRequest, Provider: p.name, Message: err.Error(), Err: err}
	}
	spliced.set(req)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	req.Header.Set("Authorization", "Bearer "+p.key)
	req.Header.Set("User-Agent", "Wisp")
	return x.middleware(req, p.http.Do)
}

// isOpenAIHost reports whether baseURL is OpenAI's own API.
func isOpenAIHost(baseURL string) bool {
	u, err := url.Parse(baseURL)
	return err == nil && u.Hostname() == "api.openai.com"
}
