package llm

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"slices"
	"strconv"
	"strings"
)

// OllamaDefaultContext is the context Ollama gives a model whose Modelfile sets no
// num_ctx. Ollama's docs (docs/context-length.mdx, 2026) say it defaults by VRAM:
// 4k below 24 GiB, 32k up to 48 GiB, 256k above, and OLLAMA_CONTEXT_LENGTH on the
// server overrides it; neither is visible through the API, so Wisp assumes the
// smallest. It is not the model's trained context_length from /api/show's
// model_info, which Ollama does not use unless asked to.
const OllamaDefaultContext = 4096

// ollamaWindow asks Ollama at the root of cfg.BaseURL (without its "/v1").
func ollamaWindow(ctx context.Context, cfg Config, model string) (Window, error) {
	facts, err := ollamaFacts(ctx, cfg, model, false)
	return facts.Window, err
}

// ollamaFacts learns model's window, and its sight when vision is set, with at most
// two questions: /api/ps for the loaded context, /api/show for the rest (asked for
// the window only when the model is not loaded). When the model is loaded, a failed
// /api/show only loses the sight.
func ollamaFacts(ctx context.Context, cfg Config, model string, vision bool) (ModelFacts, error) {
	root := strings.TrimSuffix(cfg.BaseURL, "/v1")
	n, err := ollamaRunning(ctx, cfg, root, model)
	if err != nil {
		return ModelFacts{}, err
	}
	if n > 0 && !vision {
		return ModelFacts{Window: Window{n, WindowRunning}}, nil
	}
	show, err := askOllamaShow(ctx, cfg, root, model)
	if n > 0 {
		return ModelFacts{Window: Window{n, WindowRunning}, Vision: show.vision(err)}, nil
	}
	if errors.Is(err, errNotFound) {
		return ModelFacts{}, nil
	}
	if err != nil {
		return ModelFacts{}, err
	}
	facts := ModelFacts{Window: show.window()}
	if vision {
		facts.Vision = show.vision(nil)
	}
	return facts, nil
}

// window is the num_ctx the Modelfile sets, else Ollama's default context (or the
// trained context, when smaller).
func (show ollamaShow) window() Window {
	if n := numCtx(show.Parameters); n > 0 {
		return Window{n, WindowModelfile}
	}
	n := OllamaDefaultContext
	for key, raw := range show.ModelInfo {
		if strings.HasSuffix(key, ".context_length") {
			if trained := windowNumber(raw); trained > 0 && trained < n {
				n = trained
			}
		}
	}
	return Window{n, WindowOllamaDefault}
}

// vision is whether the capabilities list "vision"; unknown when /api/show failed
// (err) or listed none (an Ollama older than 0.6.4).
func (show ollamaShow) vision(err error) Vision {
	switch {
	case err != nil || show.Capabilities == nil:
		return VisionUnknown
	case slices.Contains(show.Capabilities, "vision"):
		return VisionYes
	}
	return VisionNo
}

// ollamaShow is what Ollama's POST /api/show says of a model that Wisp reads: the
// Modelfile's parameters and the model's info for its window, its capabilities
// ("completion", "tools", "vision", ...) for whether it sees images.
type ollamaShow struct {
	Parameters   string                     `json:"parameters"`
	ModelInfo    map[string]json.RawMessage `json:"model_info"`
	Capabilities []string                   `json:"capabilities"`
}

// askOllamaShow asks /api/show at root about model; errNotFound when Ollama does
// not have it.
func askOllamaShow(ctx context.Context, cfg Config, root, model string) (ollamaShow, error) {
	var show ollamaShow
	err := askJSON(ctx, cfg, http.MethodPost, root+"/api/show", map[string]string{"model": model}, nil, &show)
	return show, err
}

// ollamaRunning is the context_length /api/ps reports for model when it is loaded,
// else 0. An Ollama too old to report it, or one that cannot be asked, says 0.
func ollamaRunning(ctx context.Context, cfg Config, root, model string) (int, error) {
	var ps struct {
		Models []struct {
			Name          string          `json:"name"`
			Model         string          `json:"model"`
			ContextLength json.RawMessage `json:"context_length"`
		} `json:"models"`
	}
	err := askJSON(ctx, cfg, http.MethodGet, root+"/api/ps", nil, nil, &ps)
	var e *Error
	if errors.As(err, &e) && e.Kind == KindUnavailable {
		return 0, err
	}
	if err != nil {
		return 0, nil
	}
	want := ollamaTag(model)
	for _, m := range ps.Models {
		if ollamaTag(m.Name) == want || ollamaTag(m.Model) == want {
			return windowNumber(m.ContextLength), nil
		}
	}
	return 0, nil
}

// ollamaTag names a model with its tag: "llama3" is "llama3:latest".
func ollamaTag(name string) string {
	if name != "" && !strings.Contains(name[strings.LastIndexByte(name, '/')+1:], ":") {
		return name + ":latest"
	}
	return name
}

// numCtx reads num_ctx from the parameters /api/show lists, one per line:
// "num_ctx                        8192".
func numCtx(parameters string) int {
	for line := range strings.Lines(parameters) {
		fields := strings.Fields(line)
		if len(fields) == 2 && fields[0] == "num_ctx" {
			if n, err := strconv.ParseInt(fields[1], 10, 64); err == nil {
				return saneWindow(n)
			}
		}
	}
	return 0
}
