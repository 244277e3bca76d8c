package benchkit

import (
	"context"
	"fmt"
	"log/slog"

	"github.com/wispapp/wisp/app"
)

// StartApp starts a real Wisp in this process, as the drivers measure it: loopback on a
// free port, state in stateDir, settings only from env (nothing from the real
// environment), a silent log, no Ollama probing and no conversation titles.
func StartApp(ctx context.Context, stateDir string, env map[string]string) (*app.App, error) {
	return startApp(ctx, stateDir, env, false)
}

// StartServeApp is StartApp with the API token `wisp serve` keeps in the state
// folder (App.APIToken), which shell access needs: send it with WithToken. tweak,
// if any, changes the options first (a driver's switch).
func StartServeApp(ctx context.Context, stateDir string, env map[string]string, tweak ...func(*app.Options)) (*app.App, error) {
	return startApp(ctx, stateDir, env, true, tweak...)
}

func startApp(ctx context.Context, stateDir string, env map[string]string, keepToken bool, tweak ...func(*app.Options)) (*app.App, error) {
	opts := app.Options{
		Host: "127.0.0.1", Port: 0, StateDir: stateDir,
		Getenv:    func(k string) string { return env[k] },
		Logger:    slog.New(slog.DiscardHandler),
		OllamaURL: "http://127.0.0.1:9", // nothing listens
		NoTitles:  true,
		KeepToken: keepToken,
	}
	for _, t := range tweak {
		t(&opts)
	}
	a, err := app.New(opts)
	if err != nil {
		return nil, fmt.Errorf("wisp: %w", err)
	}
	if err := a.Start(ctx); err != nil {
		return nil, fmt.Errorf("wisp: start: %w", err)
	}
	return a, nil
}
