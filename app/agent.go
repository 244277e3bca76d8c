package app

import (
	"encoding/json"
	"fmt"

	"github.com/wispapp/wisp/app/chat"
	"github.com/wispapp/wisp/app/config"
	"github.com/wispapp/wisp/app/ws"
	"github.com/wispapp/wisp/runtime"
	"github.com/wispapp/wisp/runtime/llm"
)

// modelConfig is the model section of the config.
type modelConfig = config.Model

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
	c := a.cfg.Character
	return runtime.Settings{
		Character:   runtime.Character{Name: c.Name, System: c.System, Bio: c.Bio},
		Model:       r.model,
		Temperature: &temp, MaxTokens: m.MaxTokens, ThinkingBudget: m.ThinkingBudget,
	}
}

// updateModel changes the model settings in the config file and applies the result
// (file plus environment) at once.
func (a *App) updateModel(change func(*modelConfig)) error {
	a.fileMu.Lock()
	defer a.fileMu.Unlock()
	next := a.file.Config
	change(&next.Model)
	eff, err := next.WithEnv(a.opts.Getenv)
	if err != nil {
		return fmt.Errorf("model settings: %w", err)
	}
	old := a.file.Config
	a.file.Config = next
	if err := a.file.Save(); err != nil {
		a.file.Config = old
		return fmt.Errorf("save config: %w", err)
	}
	a.models.set(eff.Model)
	a.log.Info("model settings changed", "provider", eff.Model.Provider, "model", eff.Model.Name)
	return nil
}

// chatHub sends chat's /ws events through the hub.
type chatHub struct{ h *ws.Hub }

var _ chat.Hub = chatHub{}

func (c chatHub) Broadcast(v any) { c.h.Broadcast(v) }

func (c chatHub) Heartbeat(payload any) {
	data, err := json.Marshal(payload)
	if err != nil {
		return
	}
	_, _ = c.h.Publish(ws.Envelope{Type: ws.KindHeartbeat, Stream: "chat", Payload: data})
}
