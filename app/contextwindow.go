package app

import (
	"context"
	"sync"
	"time"

	"github.com/wispapp/wisp/app/chat"
	"github.com/wispapp/wisp/runtime/llm"
	"github.com/wispapp/wisp/runtime/llm/tokens"
)

// windowRetry is how long a provider that did not say its window is left alone.
const windowRetry = time.Minute

// windows caches the context window each provider says its model has, by provider
// settings and model. A turn never waits for a provider: a miss asks in the
// background and the turn uses the settings' figure or the default meanwhile.
type windows struct {
	mu     sync.Mutex
	known  map[string]windowAnswer
	asking map[string]bool
	wg     sync.WaitGroup
	ask    func(ctx context.Context, cfg llm.Config, model string) (int, error)
}

type windowAnswer struct {
	tokens int
	at     time.Time
}

// get is the cached window for cfg and model (0 when not known yet, or the provider
// does not say); a miss starts a question in the background.
func (w *windows) get(cfg llm.Config, model string) int {
	key := cfg.Kind + "\x00" + cfg.BaseURL + "\x00" + cfg.APIKey + "\x00" + model
	w.mu.Lock()
	defer w.mu.Unlock()
	if a, ok := w.known[key]; ok && (a.tokens > 0 || time.Since(a.at) < windowRetry) {
		return a.tokens
	}
	if w.asking[key] || model == "" {
		return 0
	}
	if w.known == nil {
		w.known, w.asking = map[string]windowAnswer{}, map[string]bool{}
	}
	w.asking[key] = true
	w.wg.Add(1)
	go func() {
		defer w.wg.Done()
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		n, err := w.ask(ctx, cfg, model)
		if err != nil {
			n = 0
		}
		w.mu.Lock()
		defer w.mu.Unlock()
		delete(w.asking, key)
		w.known[key] = windowAnswer{tokens: n, at: time.Now()}
	}()
	return 0
}

// stop waits for the questions under way.
func (w *windows) stop() { w.wg.Wait() }

// contextWindow is the model's context window for chat's budget, and where it comes
// from: the provider's (cached; see windows), capped by model.contextWindow when that
// is lower (a local server started with a smaller context than it lists); else
// model.contextWindow; else chat's conservative default.
func (a *App) contextWindow(context.Context) (int, string) {
	set := a.models.settings().ContextWindow
	r := a.models.current()
	var prov int
	if r.reason == "" {
		prov = a.windows.get(llm.Config{Kind: r.kind, BaseURL: r.baseURL, APIKey: r.apiKey}, r.model)
	}
	return pickWindow(prov, set)
}

// pickWindow chooses between the provider's window and the settings' (0: unknown).
func pickWindow(prov, set int) (int, string) {
	switch {
	case prov > 0 && (set <= 0 || prov <= set):
		return prov, chat.WindowProvider
	case set > 0:
		return set, chat.WindowConfig
	}
	return chat.DefaultWindow, chat.WindowDefault
}

// summarizeAt is model.summarizeAt.
func (a *App) summarizeAt() int { return a.models.settings().SummarizeAt }

// tokenCounter is the token counter of a model.
func tokenCounter(model string) chat.Counter { return tokens.For(model) }
