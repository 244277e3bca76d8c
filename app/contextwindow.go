package app

import (
	"context"

	"github.com/wispapp/wisp/app/chat"
	"github.com/wispapp/wisp/runtime/llm/tokens"
)

// contextWindow is the model's context window for chat's budget, and where it comes
// from: model.contextWindow from the settings, else chat's conservative default.
// (The provider's own figure joins here once the model layer reports it.)
func (a *App) contextWindow(context.Context) (int, string) {
	if n := a.models.settings().ContextWindow; n > 0 {
		return n, chat.WindowConfig
	}
	return chat.DefaultWindow, chat.WindowDefault
}

// summarizeAt is model.summarizeAt.
func (a *App) summarizeAt() int { return a.models.settings().SummarizeAt }

// tokenCounter is the token counter of a model.
func tokenCounter(model string) chat.Counter { return tokens.For(model) }
