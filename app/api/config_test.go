package api

import (
	"context"
	"github.com/wispapp/wisp/app/settings"
	"testing"

	"github.com/wispapp/wisp/app/wire"
	"github.com/wispapp/wisp/internal/fault"
)

func TestConfigRoutes(t *testing.T) {
	var patches []map[string]any
	var shell []bool
	restarts := 0
	s := serveAPI(t, "tok-123", Options{
		Settings: fakeSettings{
			config: func(context.Context) settings.ConfigView { return settings.ConfigView{Path: "/x/wisp.json"} },
			patch: func(_ context.Context, p map[string]any) (settings.ConfigView, error) {
				patches = append(patches, p)
				if _, ok := p["nope"]; ok {
					return settings.ConfigView{}, fault.Invalid.Errorf("unknown setting: nope")
				}
				return settings.ConfigView{Path: "/x/wisp.json"}, nil
			},
			shell: func(_ context.Context, on bool) (settings.ShellView, error) {
				shell = append(shell, on)
				return settings.ShellView{Enabled: on, PendingRestart: true, PendingRestartReasons: []string{"Shell access enabled"}}, nil
			},
		},
		Restarter: fakeRestarter(func(context.Context) (RestartResult, error) {
			restarts++
			if restarts > 1 {
				return RestartResult{}, fault.Conflict.Errorf("a restart is already in progress")
			}
			return RestartResult{OK: true, Status: wire.Status{State: "running"}, Connection: ConnectionInfo{BaseURL: "http://127.0.0.1:1"}}, nil
		}),
	})
	for _, tc := range []struct {
		body string
		want int
	}{
		{`[1]`, 400}, {`null`, 400}, {`{"nope":1}`, 400}, {`{"character":{"name":"Ada"}}`, 200},
	} {
		if got := s.call("PUT", "/api/config", tc.body, nil); got.status != tc.want {
			t.Errorf("PUT %s: %d %v, want %d", tc.body, got.status, got.body, tc.want)
		}
	}
	if len(patches) != 2 {
		t.Fatalf("patches that reached the settings: %v", patches)
	}
	if got := s.call("PUT", "/api/permissions/shell", `{}`, nil); got.status != 400 {
		t.Fatalf("shell without enabled: %d", got.status)
	}
	if got := s.call("PUT", "/api/permissions/shell", `{"enabled":true}`, nil); got.status != 200 || got.body["pendingRestart"] != true {
		t.Fatalf("shell: %d %v", got.status, got.body)
	}
	if len(shell) != 1 || !shell[0] {
		t.Fatalf("shell %v", shell)
	}
	if got := s.call("POST", "/api/agent/restart", nil, nil); got.status != 200 || got.body["connection"].(map[string]any)["baseURL"] != "http://127.0.0.1:1" {
		t.Fatalf("restart: %d %v", got.status, got.body)
	}
	if got := s.call("POST", "/api/agent/restart", nil, nil); got.status != 409 {
		t.Fatalf("a second restart: %d %v", got.status, got.body)
	}
	s.checkGuarded([]route{
		{"GET", "/api/config", ""}, {"PUT", "/api/config", `{}`},
		{"PUT", "/api/permissions/shell", `{"enabled":true}`}, {"POST", "/api/agent/restart", ""},
	})
}

func TestProviderRoutes(t *testing.T) {
	var got []ProviderSettings
	s := serveAPI(t, "", Options{Providers: fakeProviders{
		configure: func(_ context.Context, ps ProviderSettings) (ProviderInfo, error) {
			got = append(got, ps)
			return ProviderInfo{Provider: ps.Provider, Model: ps.Model, CanRespond: true}, nil
		},
	}})
	long := make([]byte, 300)
	for i := range long {
		long[i] = 'm'
	}
	for _, body := range []any{
		map[string]string{"provider": "cohere"},
		map[string]string{"provider": "openai", "model": string(long)},
	} {
		if res := s.call("PUT", "/api/provider", body, nil); res.status != 400 {
			t.Errorf("PUT %v: %d", body, res.status)
		}
	}
	res := s.call("PUT", "/api/provider", map[string]string{"provider": "ollama", "model": "llama3"}, nil)
	if res.status != 200 || res.body["model"] != "llama3" || len(got) != 1 {
		t.Fatalf("configure: %d %v (%v)", res.status, res.body, got)
	}
}
