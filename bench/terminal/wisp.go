package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"

	"github.com/wispapp/wisp/app"
	"github.com/wispapp/wisp/bench/benchkit"
)

// clientID is the id the benchmark's socket and runs share: output of a run
// goes only to sockets of its client.
const clientID = "bench"

// Terminal size of every run (and of the floors' PTYs).
const cols, rows = 200, 50

// wisp is a real Wisp App running in this process on 127.0.0.1 with shell
// access on, and the one WebSocket client that watches its runs.
type wisp struct {
	app    *app.App
	client *http.Client
	ws     *wsClient
}

// startWisp writes the config file (shell on, runs of up to an hour, the
// temporary folder as their working folder), starts the App and connects the
// socket.
func startWisp(ctx context.Context, stateDir, cwd string, counting bool) (*wisp, error) {
	if err := os.MkdirAll(stateDir, 0o700); err != nil {
		return nil, err
	}
	conf, err := json.Marshal(map[string]any{
		"features": map[string]any{"shellEnabled": true},
		"terminal": map[string]any{"maxDurationMs": 3600000, "cwd": cwd},
	})
	if err != nil {
		return nil, err
	}
	if err := os.WriteFile(filepath.Join(stateDir, "wisp.json"), conf, 0o600); err != nil {
		return nil, err
	}
	env := map[string]string{}
	a, err := benchkit.StartServeApp(ctx, stateDir, env) // shell access needs a token
	if err != nil {
		return nil, err
	}
	w := &wisp{app: a, client: benchkit.WithToken(benchkit.NewHTTPClient(), a.APIToken())}
	if w.ws, err = dialWS(ctx, w.wsURL(), a.APIToken(), counting); err != nil {
		_ = a.Stop()
		return nil, fmt.Errorf("wisp: %w", err)
	}
	return w, nil
}

func (w *wisp) wsURL() string {
	return "ws" + strings.TrimPrefix(w.app.URL(), "http") + "/ws?clientId=" + clientID
}

// reconnect closes the socket and opens another for the same client.
func (w *wisp) reconnect(ctx context.Context, counting bool) error {
	w.ws.close()
	ws, err := dialWS(ctx, w.wsURL(), w.app.APIToken(), counting)
	if err != nil {
		return fmt.Errorf("wisp: %w", err)
	}
	w.ws = ws
	return nil
}

func (w *wisp) stop() error {
	w.ws.close()
	return w.app.Stop()
}

// runAnswer is the answer of POST /api/terminal/run: at once without capture,
// at the end of the run (with the first 128 KiB of output) with it.
type runAnswer struct {
	OK       bool   `json:"ok"`
	RunID    string `json:"runId"`
	ExitCode int    `json:"exitCode"`
	Stdout   string `json:"stdout"`
	Error    string `json:"error"`
}

// startRun posts a run for the benchmark's client.
func (w *wisp) startRun(ctx context.Context, command string, capture bool) (runAnswer, error) {
	var out runAnswer
	err := w.post(ctx, "/api/terminal/run", map[string]any{
		"command": command, "clientId": clientID, "cols": cols, "rows": rows, "captureOutput": capture,
	}, &out)
	if err == nil && out.RunID == "" {
		err = fmt.Errorf("POST /api/terminal/run: no runId in the answer")
	}
	return out, err
}

// kill ends a run through the API.
func (w *wisp) kill(ctx context.Context, runID string) error {
	var out struct{ OK bool }
	return w.post(ctx, "/api/terminal/runs/"+runID+"/kill", map[string]any{}, &out)
}

// post sends a JSON request to Wisp and decodes a 200 answer into out.
func (w *wisp) post(ctx context.Context, path string, in, out any) error {
	return benchkit.PostJSON(ctx, w.client, w.app.URL()+path, in, out)
}
