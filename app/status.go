package app

import (
	"encoding/json"
	"time"

	"github.com/wispapp/wisp/app/api"
)

// noRuntimeReason is said while Wisp has no agent runtime to answer chat.
const noRuntimeReason = "Chat is not available yet: this build of Wisp has no agent runtime."

func (a *App) status() api.Status {
	s := api.Status{
		State:                 a.state.Load().(string),
		AgentName:             a.cfg.Character.Name,
		Model:                 a.cfg.Model.Name,
		CanRespond:            false,
		CanRespondReason:      noRuntimeReason,
		PendingRestartReasons: []string{},
	}
	if !a.startedAt.IsZero() {
		s.StartedAt = a.startedAt.UnixMilli()
		s.Uptime = time.Since(a.startedAt).Milliseconds()
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
