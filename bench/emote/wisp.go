package main

import (
	"context"
	"fmt"
	"net/http"
	"strings"

	"github.com/wispapp/wisp/app"
	"github.com/wispapp/wisp/bench/benchkit"
)

// wisp is a real Wisp App running in this process on 127.0.0.1, and the
// clients connected to its /ws.
type wisp struct {
	app    *app.App
	client *http.Client
	fan    *fan
}

func startWisp(ctx context.Context, stateDir string, clients int) (*wisp, error) {
	a, err := benchkit.StartApp(ctx, stateDir, nil)
	if err != nil {
		return nil, err
	}
	w := &wisp{app: a, client: benchkit.NewHTTPClient()}
	wsURL := "ws" + strings.TrimPrefix(a.URL(), "http") + "/ws"
	if w.fan, err = dialFan(ctx, func(i int) string { return fmt.Sprintf("%s?clientId=emote-bench-%d", wsURL, i) }, clients); err != nil {
		_ = a.Stop()
		return nil, fmt.Errorf("wisp: %w", err)
	}
	return w, nil
}

// play is one sample's trigger: POST /api/emote, answered {"ok":true}.
func (w *wisp) play(ctx context.Context) error {
	var out struct{ OK bool }
	if err := benchkit.PostJSON(ctx, w.client, w.app.URL()+"/api/emote", map[string]string{"emoteId": emoteID}, &out); err != nil {
		return err
	}
	if !out.OK {
		return fmt.Errorf("POST /api/emote: answer without ok")
	}
	return nil
}

func (w *wisp) side() *side {
	return &side{name: "wisp", fan: w.fan, trigger: w.play}
}

func (w *wisp) stop() {
	w.fan.close()
	_ = w.app.Stop()
}
