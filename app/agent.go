package app

import (
	"github.com/wispapp/wisp/runtime"
	"github.com/wispapp/wisp/runtime/llm"
)

// newAgent builds the agent runtime on the app's model settings and character.
func (a *App) newAgent() *runtime.Agent {
	return runtime.New(runtime.Options{
		Provider: func() (llm.Provider, error) { return a.models.Provider() },
		Settings: a.agentSettings,
		Actions:  a.actions,
		Logger:   a.log.With("component", "agent"),
	})
}

func (a *App) agentSettings() runtime.Settings {
	m := a.models.settings()
	r := a.models.current()
	temp := m.Temperature
	c := a.settings.Live().Character
	return runtime.Settings{
		Character:   runtime.Character{Name: c.Name, System: c.System, Bio: c.Bio},
		Model:       r.model,
		Temperature: &temp, MaxTokens: m.MaxTokens, ThinkingBudget: m.ThinkingBudget,
	}
}
