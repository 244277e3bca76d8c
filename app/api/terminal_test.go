package api

import (
	"log/slog"
	"strings"
	"testing"

	"github.com/wispapp/wisp/terminal"
)

// serveTerminal is the API on a real shell runner (in /tmp) behind gate.
func serveTerminal(t *testing.T, token string, gate *TerminalGate) *served {
	t.Helper()
	m := terminal.NewManager(terminal.Options{Dir: "/tmp", Logger: slog.New(slog.DiscardHandler)})
	t.Cleanup(m.Stop)
	return serveAPI(t, token, Options{Terminal: &Terminal{Manager: m, Gate: gate, ConfigPath: "/x/wisp.json"}})
}

func TestTerminalIsOffByDefault(t *testing.T) {
	s := serveTerminal(t, "", NewTerminalGate(false, false, ""))
	ans := s.call("POST", "/api/terminal/run", map[string]any{"command": "echo hi", "clientId": "tab-1"}, nil)
	if ans.status != 403 || !strings.Contains(str(ans.body["error"]), "shellEnabled") {
		t.Fatalf("%d %v", ans.status, ans.body)
	}
	list := s.call("GET", "/api/terminal/runs", nil, nil)
	if list.body["enabled"] != false || list.body["configPath"] != "/x/wisp.json" || len(list.body["runs"].([]any)) != 0 {
		t.Fatalf("list %v", list.body)
	}
}

func TestTerminalValidation(t *testing.T) {
	s := serveTerminal(t, "", NewTerminalGate(true, false, ""))
	ok := map[string]any{"command": "true", "clientId": "tab-1"}
	with := func(k string, v any) map[string]any {
		m := map[string]any{}
		for k, v := range ok {
			m[k] = v
		}
		m[k] = v
		return m
	}
	tests := []struct {
		name   string
		body   any
		header map[string]string
		status int
	}{
		{"empty command", with("command", ""), nil, 400},
		{"blank command", with("command", "  \t "), nil, 400},
		{"no command", map[string]any{"clientId": "tab-1"}, nil, 400},
		{"4097 characters", with("command", "echo "+strings.Repeat("é", 4092)), nil, 400},
		{"newline", with("command", "echo a\necho b"), nil, 400},
		{"carriage return", with("command", "echo a\recho b"), nil, 400},
		{"NUL", with("command", "echo a\x00"), nil, 400},
		{"no client id", map[string]any{"command": "true"}, nil, 400},
		{"bad client id", with("clientId", "tab 1"), nil, 400},
		{"long client id", with("clientId", strings.Repeat("a", 129)), nil, 400},
		{"bad header client id", ok, map[string]string{"X-Client-Id": "../x"}, 400},
		{"zero cols", with("cols", 0), nil, 400},
		{"501 rows", with("rows", 501), nil, 400},
		{"not JSON", "{nope", nil, 400},
		{"4096 characters trimmed", with("command", "  echo "+strings.Repeat("é", 4091)+"  "), nil, 200},
		{"header wins over a bad body id", with("clientId", "bad id"), map[string]string{"X-Client-Id": "tab-2"}, 200},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ans := s.call("POST", "/api/terminal/run", tt.body, tt.header)
			if ans.status != tt.status {
				t.Fatalf("%d %v, want %d", ans.status, ans.body, tt.status)
			}
			if tt.status != 200 && ans.body["error"] == "" {
				t.Fatal("no error message")
			}
		})
	}
	// The run whose body id was bad belongs to the header's client.
	for _, r := range s.call("GET", "/api/terminal/runs", nil, nil).body["runs"].([]any) {
		if id := r.(map[string]any)["clientId"]; id != "tab-1" && id != "tab-2" {
			t.Fatalf("run of client %v", id)
		}
	}
}

func TestTerminalTokens(t *testing.T) {
	const api, term = "api-secret", "term-secret"
	body := map[string]any{"command": "true", "clientId": "tab-1"}

	noTerm := serveTerminal(t, api, NewTerminalGate(true, true, ""))
	if ans := noTerm.call("POST", "/api/terminal/run", body, nil); ans.status != 403 || !strings.Contains(str(ans.body["error"]), "WISP_TERMINAL_RUN_TOKEN") {
		t.Fatalf("no terminal token configured: %d %v", ans.status, ans.body)
	}

	s := serveTerminal(t, api, NewTerminalGate(true, true, term))
	tests := []struct {
		name   string
		header map[string]string
		status int
	}{
		{"no API token", map[string]string{"Authorization": "", "X-Terminal-Token": term}, 401},
		{"no terminal token", nil, 401},
		{"wrong terminal token", map[string]string{"X-Terminal-Token": "nope"}, 401},
		{"API token as terminal token", map[string]string{"X-Terminal-Token": api}, 401},
		{"both", map[string]string{"X-Terminal-Token": term}, 200},
	}
	for _, tt := range tests {
		if ans := s.call("POST", "/api/terminal/run", body, tt.header); ans.status != tt.status {
			t.Errorf("%s: %d %v, want %d", tt.name, ans.status, ans.body, tt.status)
		}
	}
	if list := s.call("GET", "/api/terminal/runs", nil, nil); list.body["tokenRequired"] != true {
		t.Fatalf("list %v", list.body)
	}
}
