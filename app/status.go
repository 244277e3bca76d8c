package app

import (
	"strings"
	"time"

	"github.com/wispapp/wisp/app/wire"
)

func (a *App) status() wire.Status {
	state := a.life.state.Load().(string)
	r := a.models.current()
	reasons, configErr := a.settings.Pending()
	s := wire.Status{
		State:            wire.AppState(state),
		AgentName:        a.settings.Live().Character.Name,
		Model:            r.model,
		Provider:         r.kind,
		CanRespond:       r.reason == "" && state == "running",
		CanRespondReason: r.reason,
		RestartState:     wire.NewRestartState(reasons),
		ConfigError:      configErr,
		AutonomyEnabled:  a.settings.Live().Autonomy.Enabled,
	}
	s.Confinement, s.ConfinementReason = a.confinement()
	if r.reason == "" && state != "running" {
		s.CanRespondReason = "Wisp is " + strings.ReplaceAll(state, "_", " ")
	}
	if started := a.life.startedAt.Load(); started != 0 {
		s.StartedAt = started
		s.Uptime = time.Now().UnixMilli() - started
	}
	return s
}

// statusFrame is the /ws status event; the first one a client gets omits the
// pendingRestart fields (seed 004), the periodic one carries them.
func (a *App) statusFrame(periodic bool) wire.StatusFrame {
	s := a.status()
	if !periodic {
		s.RestartState = nil
	}
	return wire.NewStatus(s)
}

// broadcastStatus sends every client the full status (with the restart fields) now.
func (a *App) broadcastStatus() { a.events.Publish(a.statusFrame(true)) }
