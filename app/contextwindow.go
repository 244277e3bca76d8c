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

// windows caches what each provider says of its model (its context window and
// whether it sees images), by provider settings and model. A turn never waits for a
// provider: a miss asks in the background and the turn uses the settings' figure or
// the default meanwhile (and sends images: a model not known to be blind gets them).
type windows struct {
	mu     sync.Mutex
	known  map[string]windowAnswer
	asking map[string]chan struct{} // closed when the question is answered
	wg     sync.WaitGroup
	ask    func(ctx context.Context, cfg llm.Config, model string) (llm.ModelFacts, error)
}

type windowAnswer struct {
	facts llm.ModelFacts
	at    time.Time
}

// get is the cached window for cfg and model (0 when not known yet, or the provider
// does not say); a miss starts a question in the background.
func (w *windows) get(cfg llm.Config, model string) int { return w.facts(cfg, model).Window.Tokens }

// facts are the cached facts of cfg's model (zero when not known yet); a miss, or a
// provider that said nothing a while ago, starts a question in the background.
func (w *windows) facts(cfg llm.Config, model string) llm.ModelFacts {
	f, _ := w.lookup(cfg, model)
	return f
}

// waitFacts is facts, waiting up to wait (or ctx's end) for a question under way:
// for what a turn cannot guess, such as whether the model sees the images it is
// about to be sent.
func (w *windows) waitFacts(ctx context.Context, cfg llm.Config, model string, wait time.Duration) llm.ModelFacts {
	f, answered := w.lookup(cfg, model)
	if answered == nil {
		return f
	}
	t := time.NewTimer(wait)
	defer t.Stop()
	select {
	case <-answered:
		return w.facts(cfg, model)
	case <-t.C:
	case <-ctx.Done():
	}
	return f
}

// lookup is the cached facts, or the channel of the question under way for them
// (nil when they are known, or no question can be asked).
func (w *windows) lookup(cfg llm.Config, model string) (llm.ModelFacts, <-chan struct{}) {
	key := cfg.Kind + "\x00" + cfg.BaseURL + "\x00" + cfg.APIKey + "\x00" + model
	w.mu.Lock()
	defer w.mu.Unlock()
	if a, ok := w.known[key]; ok && (a.facts.Window.Tokens > 0 || time.Since(a.at) < windowRetry) {
		return a.facts, nil
	}
	if model == "" {
		return llm.ModelFacts{}, nil
	}
	if ch, ok := w.asking[key]; ok {
		return llm.ModelFacts{}, ch
	}
	if w.known == nil {
		w.known, w.asking = map[string]windowAnswer{}, map[string]chan struct{}{}
	}
	answered := make(chan struct{})
	w.asking[key] = answered
	w.wg.Add(1)
	go func() {
		defer w.wg.Done()
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		f, _ := w.ask(ctx, cfg, model) // what it learned before a failure is kept
		w.mu.Lock()
		defer w.mu.Unlock()
		delete(w.asking, key)
		w.known[key] = windowAnswer{facts: f, at: time.Now()}
		close(answered)
	}()
	return llm.ModelFacts{}, answered
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

// visionWait is how long a turn with images waits for the provider to say whether
// its model sees them, the first time it is asked.
const visionWait = 3 * time.Second

// vision is whether the model in use sees images, as its provider says (cached; see
// windows): unknown for providers that do not say. A turn with images is about to
// send them, so the first question is waited for (a little): a blind model sent an
// image fails the reply, where a known one gets a notice instead.
func (a *App) vision(ctx context.Context) llm.Vision {
	r := a.models.current()
	if r.reason != "" {
		return llm.VisionUnknown
	}
	return a.windows.waitFacts(ctx, llm.Config{Kind: r.kind, BaseURL: r.baseURL, APIKey: r.apiKey}, r.model, visionWait).Vision
}

// imageLimits are the image limits of the provider in use.
func (a *App) imageLimits() llm.ImageLimits { return llm.ImageLimitsFor(a.models.current().kind) }

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
