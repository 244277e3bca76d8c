package app

import (
	"github.com/wispapp/wisp/app/memory"
	"github.com/wispapp/wisp/runtime"
	"github.com/wispapp/wisp/runtime/llm"
)

// newAgent builds the agent runtime on the app's model settings and character; every
// model call (chat turns and the autonomy loop's) has the memory in its prompt.
func (a *App) newAgent(mem *memory.Service) *runtime.Agent {
	return runtime.New(runtime.Options{
		Provider: func() (llm.Provider, error) { return a.models.Provider() },
		Settings: a.agentSettings,
		Actions:  a.actions,
		Logger:   a.log.With("component", "agent"),
		Memory:   mem.Prompt,
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
