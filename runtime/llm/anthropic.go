package llm

import (
	"context"
	"errors"

	"github.com/anthropics/anthropic-sdk-go"
	"github.com/anthropics/anthropic-sdk-go/option"
)

// Anthropic streams chat turns from Anthropic's Messages API, with extended thinking.
type Anthropic struct {
	client anthropic.Client
}

// NewAnthropic returns a provider for cfg. The SDK's own configuration sources
// (ANTHROPIC_* variables, profile files) are ignored: cfg is the whole truth.
func NewAnthropic(cfg Config) *Anthropic {
	cfg.Kind = ProviderAnthropic
	cfg = cfg.withDefaults()
	opts := []option.RequestOption{
		option.WithoutEnvironmentDefaults(),
		option.WithBaseURL(cfg.BaseURL),
		option.WithHTTPClient(cfg.HTTPClient),
		option.WithMaxRetries(0), // callers decide whether to retry
	}
	if cfg.APIKey != "" {
		opts = append(opts, option.WithAPIKey(cfg.APIKey))
	}
	return &Anthropic{client: anthropic.NewClient(opts...)}
}

// Name is "anthropic".
func (p *Anthropic) Name() string { return ProviderAnthropic }

// Stream sends req and streams the reply; see Provider.
func (p *Anthropic) Stream(ctx context.Context, req Request, onDelta func(Delta)) (Response, error) {
	if onDelta == nil {
		onDelta = func(Delta) {}
	}
	images := &imageSlots{}
	params, err := anthropicParams(req, images)
	if err != nil {
		return Response{}, &Error{Kind: KindBadRequest, Provider: ProviderAnthropic, Message: err.Error(), Err: err}
	}
	x := &exchange{provider: ProviderAnthropic}
	stream := p.client.Messages.NewStreaming(ctx, params, option.WithMiddleware(x.middleware, images.middleware))
	defer stream.Close()

	acc := newEventAccumulator(onDelta)
	for stream.Next() {
		acc.add(stream.Current())
	}
	if err := stream.Err(); err != nil {
		var event *anthropic.Error
		if errors.As(err, &event) && ctx.Err() == nil {
			// HTTP error statuses never get here (x.middleware handles them), so
			// this is an error event in the middle of the stream.
			return Response{}, x.eventError([]byte(event.RawJSON()), string(event.Type()))
		}
		return Response{}, x.fail(ctx, err)
	}
	if ctx.Err() != nil {
		return Response{}, ctx.Err()
	}
	if !acc.stopped {
		return Response{}, x.truncated()
	}
	return acc.response(), nil
}
