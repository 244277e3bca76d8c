package llm

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
)

// Vision says whether a model sees the images it is sent.
type Vision int

// What a provider says of a model's sight.
const (
	VisionUnknown Vision = iota // the provider does not say: images are sent
	VisionYes
	VisionNo // the provider says the model cannot see images
)

// String is "unknown", "yes" or "no".
func (v Vision) String() string {
	switch v {
	case VisionYes:
		return "yes"
	case VisionNo:
		return "no"
	}
	return "unknown"
}

// SeesImages asks the provider cfg names whether model sees images:
//   - Ollama: whether the capabilities of POST /api/show list "vision" (the question
//     DiscoverWindow asks when the model is not loaded; Ollama 0.6.4 and later list
//     capabilities, an older one says nothing: VisionUnknown);
//   - Anthropic: yes, every Claude model since Claude 3 sees images; Claude 2 and
//     Instant do not;
//   - OpenAI's own API: a table of its model families;
//   - other OpenAI-compatible servers: LM Studio's GET /api/v0/models gives a
//     model's type ("vlm" sees images, "llm" does not); llama.cpp's server answers
//     GET /props with modalities.vision; any other server says nothing.
//
// Every question is bounded like DiscoverWindow's (3 s, 1 MiB) and a hostile answer
// is ignored. The error is for a provider that could not be asked; VisionUnknown with
// a nil error means it was asked and did not say. Remembering the answer is the
// caller's job.
func SeesImages(ctx context.Context, cfg Config, model string) (Vision, error) {
	cfg = cfg.withDefaults()
	switch cfg.Kind {
	case ProviderOllama:
		return ollamaVision(ctx, cfg, model)
	case ProviderAnthropic:
		return anthropicVision(model), nil
	}
	if sameHost(cfg.BaseURL, "api.openai.com") {
		return openAIVision(model), nil
	}
	return compatibleVision(ctx, cfg, model)
}

func ollamaVision(ctx context.Context, cfg Config, model string) (Vision, error) {
	show, err := askOllamaShow(ctx, cfg, strings.TrimSuffix(cfg.BaseURL, "/v1"), model)
	var unavailable *Error
	if errors.As(err, &unavailable) && unavailable.Kind == KindUnavailable {
		return VisionUnknown, err
	}
	return show.vision(err), nil
}

// ModelFacts is what a provider says of a model: its context window and whether it
// sees images.
type ModelFacts struct {
	Window Window
	Vision Vision
}

// DiscoverModel learns both of model's facts, as DiscoverWindow and SeesImages do,
// with one /api/show for both from Ollama. The error is for a provider that could
// not be asked; the facts it did learn are kept.
func DiscoverModel(ctx context.Context, cfg Config, model string) (ModelFacts, error) {
	cfg = cfg.withDefaults()
	if cfg.Kind == ProviderOllama {
		return ollamaFacts(ctx, cfg, model, true)
	}
	w, err := DiscoverWindow(ctx, cfg, model)
	if err != nil {
		return ModelFacts{Window: w}, err
	}
	v, err := SeesImages(ctx, cfg, model)
	return ModelFacts{Window: w, Vision: v}, err
}

// anthropicVision: Anthropic's "Vision" guide says every Claude 3 and later model
// sees images; Claude 2.x and Claude Instant did not.
func anthropicVision(model string) Vision {
	name := strings.ToLower(model)
	if strings.HasPrefix(name, "claude-2") || strings.HasPrefix(name, "claude-instant") {
		return VisionNo
	}
	return VisionYes
}

// openAIVision is what OpenAI's model pages (platform.openai.com/docs/models) say
// of its families' image input: the longest matching prefix wins; a name the table
// does not know is VisionUnknown.
func openAIVision(model string) Vision {
	name := strings.ToLower(model)
	if i := strings.LastIndexByte(name, '/'); i >= 0 {
		name = name[i+1:]
	}
	table := map[string]Vision{
		"gpt-4o": VisionYes, "chatgpt-4o": VisionYes, "gpt-4.1": VisionYes, "gpt-4.5": VisionYes,
		"gpt-5": VisionYes, "o1": VisionYes, "o3": VisionYes, "o4-mini": VisionYes,
		"o1-mini": VisionNo, "o1-preview": VisionNo, "o3-mini": VisionNo, "gpt-3.5": VisionNo,
	}
	best, v := 0, VisionUnknown
	for prefix, said := range table {
		if strings.HasPrefix(name, prefix) && len(prefix) > best {
			best, v = len(prefix), said
		}
	}
	return v
}

// compatibleVision asks LM Studio's model list, then llama.cpp's /props, both at
// the root beside "/v1".
func compatibleVision(ctx context.Context, cfg Config, model string) (Vision, error) {
	root, ok := strings.CutSuffix(cfg.BaseURL, "/v1")
	if !ok {
		return VisionUnknown, nil
	}
	header := http.Header{}
	if cfg.APIKey != "" {
		header.Set("Authorization", "Bearer "+cfg.APIKey)
	}
	var list struct {
		Data []struct {
			ID   string `json:"id"`
			Type string `json:"type"`
		} `json:"data"`
	}
	err := askJSON(ctx, cfg, http.MethodGet, root+"/api/v0/models", nil, header, &list)
	var unavailable *Error
	if errors.As(err, &unavailable) && unavailable.Kind == KindUnavailable {
		return VisionUnknown, err
	}
	if err == nil {
		for _, m := range list.Data {
			if m.ID == model {
				switch m.Type {
				case "vlm":
					return VisionYes, nil
				case "llm":
					return VisionNo, nil
				}
			}
		}
	}
	var props struct {
		Modalities *struct {
			Vision json.RawMessage `json:"vision"`
		} `json:"modalities"`
	}
	if err := askJSON(ctx, cfg, http.MethodGet, root+"/props", nil, header, &props); err != nil || props.Modalities == nil {
		return VisionUnknown, nil
	}
	switch string(props.Modalities.Vision) {
	case "true":
		return VisionYes, nil
	case "false":
		return VisionNo, nil
	}
	return VisionUnknown, nil
}
