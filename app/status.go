package app

import (
	"encoding/json"
	"strings"
	"time"

	"github.com/wispapp/wisp/app/api"
)

func (a *App) status() api.Status {
	state := a.state.Load().(string)
	r := a.models.current()
	reasons, configErr := a.pending()
	s := api.Status{
		State:                 state,
		AgentName:             a.liveConfig().Character.Name,
		Model:                 r.model,
		Provider:              r.kind,
		CanRespond:            r.reason == "" && state == "running",
		CanRespondReason:      r.reason,
		PendingRestart:        len(reasons) > 0,
		PendingRestartReasons: reasons,
		ConfigError:           configErr,
		AutonomyEnabled:       a.liveConfig().Autonomy.Enabled,
	}
	if r.reason == "" && state != "running" {
		s.CanRespondReason = "Wisp is " + strings.ReplaceAll(state, "_", " ")
	}
	if started := a.startedAt.Load(); started != 0 {
		s.StartedAt = started
		s.Uptime = time.Now().UnixMilli() - started
	}
	return s
}

// statusFrame is the /ws status event; the first one a client gets omits the
// pendingRestart fields (seed 004), the periodic one carries them.
func (a *App) statusFrame(periodic bool) any {
	data, err := json.Marshal(a.status())
	if err != nil {
		return map[string]string{"type": "status"}
	}
	frame := map[string]any{}
	_ = json.Unmarshal(data, &frame)
	frame["type"] = "status"
	if !periodic {
		delete(frame, "pendingRestart")
		delete(frame, "pendingRestartReasons")
	}
	return frame
}
