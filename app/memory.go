package app

import (
	"github.com/wispapp/wisp/app/memory"
	"github.com/wispapp/wisp/app/store"
)

// newMemory builds the memory of the character the settings name now, bounded and
// saved as they say (docs/memory.md).
func (a *App) newMemory(st *store.Store) *memory.Service {
	return memory.New(memory.Options{Store: st, Events: a.events, Logger: a.log.With("component", "memory"),
		Settings: func() memory.Settings {
			cfg := a.settings.Live()
			return memory.Settings{Character: cfg.Character.Name, MaxBytes: cfg.Memory.MaxBytes, AutoSave: cfg.Memory.AutoSave}
		}})
}

// registerMemoryActions offers the agent REMEMBER (through the approval gate) and
// RECALL (read-only: it asks nobody).
func (a *App) registerMemoryActions(c *core) error {
	if err := a.actions.Register(c.memory.RememberAction(c.approvals)); err != nil {
		return err
	}
	return a.actions.Register(c.memory.RecallAction())
}
