package runtime

import (
	"context"

	"github.com/wispapp/wisp/runtime/llm"
)

// Tools are the actions the next turn offers the model, as it sends them.
func (a *Agent) Tools() []llm.Tool { return a.opts.Actions.Tools() }

// Ask makes one model call of its own (no actions, no history): system and text,
// answered in at most maxTokens, each piece of the answer given to onText as it
// comes. The call fails if the model goes silent for the idle timeout.
func (a *Agent) Ask(ctx context.Context, system, text string, maxTokens int, onText func(string)) (llm.Response, error) {
	prov, err := a.Provider()
	if err != nil {
		return llm.Response{}, err
	}
	set := a.opts.Settings()
	t := &turn{a: a, emit: func(Event, Fold) {}}
	req := llm.Request{Model: set.Model, System: system, MaxTokens: maxTokens, Temperature: set.Temperature,
		Messages: []llm.Message{{Role: llm.RoleUser, Text: text}}}
	return t.streamTo(ctx, prov, req, func(d llm.Delta) {
		if d.Kind == llm.DeltaText && d.Text != "" {
			onText(d.Text)
		}
	})
}
