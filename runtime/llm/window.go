package llm

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// The bounds of window discovery: one question to a provider takes at most
// windowTimeout and reads at most maxWindowBody of its answer; a window outside
// [MinWindow, MaxWindow] is taken as garbage.
const (
	maxWindowBody = 1 << 20
	MinWindow     = 256
	MaxWindow     = 10_000_000
)

// windowTimeout bounds one question; a variable so tests can shorten it.
var windowTimeout = 3 * time.Second

// Where a Window was learned.
const (
	WindowRunning       = "running"        // Ollama's /api/ps: the model as loaded now
	WindowModelfile     = "modelfile"      // Ollama's /api/show: PARAMETER num_ctx
	WindowOllamaDefault = "ollama-default" // Ollama's default context: the model sets none
	WindowListed        = "listed"         // an OpenAI-compatible server's model list
	WindowTable         = "table"          // Wisp's table of a cloud provider's models
)

// Window is a model's context window in tokens and where it was learned; Tokens is
// 0 when the provider does not say.
type Window struct {
	Tokens int
	Source string
}

// ContextWindow asks the provider cfg names how many tokens model's context window
// holds: 0 when it does not say. See DiscoverWindow.
func ContextWindow(ctx context.Context, cfg Config, model string) (int, error) {
	w, err := DiscoverWindow(ctx, cfg, model)
	return w.Tokens, err
}

// DiscoverWindow learns model's context window from the provider cfg names:
//   - Ollama: the context the model is loaded with now (GET /api/ps), else the
//     num_ctx its Modelfile sets (POST /api/show), else Ollama's default context,
//     which is what Ollama uses at run time whatever the model was trained for;
//   - OpenAI-compatible servers: the window their model list gives (GET /models:
//     context_length for OpenRouter and others, max_model_len for vLLM,
//     context_window for Groq; LM Studio's GET /api/v0/models), else for OpenAI's
//     own API a table of its models;
//   - Anthropic: a table of its models.
//
// Every question is bounded in time and size and a hostile answer is ignored. The
// error is for a provider that could not be asked (unreachable, an HTTP error);
// Window{} with a nil error means it was asked and did not say.
func DiscoverWindow(ctx context.Context, cfg Config, model string) (Window, error) {
	cfg = cfg.withDefaults()
	switch cfg.Kind {
	case ProviderOllama:
		return ollamaWindow(ctx, cfg, model)
	case ProviderAnthropic:
		if n := anthropicWindow(model); n > 0 {
			return Window{n, WindowTable}, nil
		}
		return Window{}, nil
	}
	return openAIWindow(ctx, cfg, model)
}

// saneWindow is n when it is a plausible context window, else 0.
func saneWindow(n int64) int {
	if n < MinWindow || n > MaxWindow {
		return 0
	}
	return int(n)
}

// windowNumber reads a JSON value that should be a window: an integer (or a float
// with no fraction) within bounds; anything else is 0.
func windowNumber(raw json.RawMessage) int {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || len(raw) > 32 {
		return 0
	}
	if n, err := strconv.ParseInt(string(raw), 10, 64); err == nil {
		return saneWindow(n)
	}
	f, err := strconv.ParseFloat(string(raw), 64)
	if err != nil || f != math.Trunc(f) || math.IsInf(f, 0) {
		return 0
	}
	if f < MinWindow || f > MaxWindow {
		return 0
	}
	return int(f)
}

// errNotFound says the server answered 404: it does not know the model or the route.
var errNotFound = fmt.Errorf("not found")

// askJSON sends one bounded request and decodes at most maxWindowBody of a 2xx
// answer into out.
func askJSON(ctx context.Context, cfg Config, method, url string, body any, header http.Header, out any) error {
	ctx, cancel := context.WithTimeout(ctx, windowTimeout)
	defer cancel()
	var reader io.Reader
	if body != nil {
		data, err := json.Marshal(body)
		if err != nil {
			return err
		}
		reader = bytes.NewReader(data)
	}
	req, err := http.NewRequestWithContext(ctx, method, url, reader)
	if err != nil {
		return &Error{Kind: KindUnavailable, Provider: cfg.Kind, Message: err.Error(), Err: err}
	}
	for k, v := range header {
		req.Header[k] = v
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	res, err := cfg.HTTPClient.Do(req)
	if err != nil {
		return &Error{Kind: KindUnavailable, Provider: cfg.Kind, Message: connectCause(err), Err: err}
	}
	defer res.Body.Close()
	limited := io.LimitReader(res.Body, maxWindowBody)
	if res.StatusCode == http.StatusNotFound {
		return errNotFound
	}
	if res.StatusCode >= 300 {
		data, _ := io.ReadAll(io.LimitReader(limited, maxErrorBody))
		perr := parseErrorBody(data)
		return &Error{Kind: kindForStatus(res.StatusCode), Status: res.StatusCode, Provider: cfg.Kind, Message: perr.Message}
	}
	if err := json.NewDecoder(limited).Decode(out); err != nil {
		return fmt.Errorf("decode %s: %w", req.URL.Path, err)
	}
	return nil
}

// sameHost reports whether base's host is host.
func sameHost(base, host string) bool {
	u, err := url.Parse(base)
	return err == nil && strings.EqualFold(u.Hostname(), host)
}
