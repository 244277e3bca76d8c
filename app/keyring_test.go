package app

import (
	"context"
	"encoding/json"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/wispapp/wisp/app/config"
	"github.com/wispapp/wisp/secrets"
)

// logSignal is a log handler that hands each message to a channel: a test waits for
// what Wisp says it did instead of polling.
type logSignal struct{ msgs chan string }

func (h logSignal) Enabled(context.Context, slog.Level) bool { return true }
func (h logSignal) Handle(_ context.Context, r slog.Record) error {
	select {
	case h.msgs <- r.Message:
	default:
	}
	return nil
}
func (h logSignal) WithAttrs([]slog.Attr) slog.Handler { return h }
func (h logSignal) WithGroup(string) slog.Handler      { return h }

// await waits for the log message msg.
func (h logSignal) await(t *testing.T, msg string) {
	t.Helper()
	timeout := time.After(15 * time.Second) // a deadline, not a speed claim
	for {
		select {
		case m := <-h.msgs:
			if m == msg {
				return
			}
		case <-timeout:
			t.Fatalf("Wisp never logged %q", msg)
		}
	}
}

const movedMsg = "secrets moved from the config file to the keyring"

// startKeyring starts a Wisp (as `wisp serve`) on dir with kr as its keyring.
func startKeyring(t *testing.T, dir, config string, kr secrets.Keyring, env map[string]string) (*termApp, logSignal) {
	t.Helper()
	if config != "" {
		if err := os.WriteFile(filepath.Join(dir, "wisp.json"), []byte(config), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	logs := logSignal{msgs: make(chan string, 256)}
	opts := testOptions(t, dir, env)
	opts.KeepToken = true
	opts.Logger = slog.New(logs)
	opts.Keyring = func(string) secrets.Keyring { return kr }
	a := startApp(t, opts)
	t.Cleanup(func() { a.Stop() })
	return &termApp{App: a, t: t}, logs
}

// fileOf is the config file's keys.
func fileOf(t *testing.T, a *App) (map[string]any, string) {
	t.Helper()
	data, err := os.ReadFile(a.settings.Path())
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	return m, string(data)
}

func secretStoreOf(t *testing.T, a *termApp, header map[string]string) map[string]any {
	t.Helper()
	got := a.do("GET", "/api/config", nil, header)
	store, _ := got.body["secretStore"].(map[string]any)
	return store
}

func TestKeyringKeepsASecretSavedInSettings(t *testing.T) {
	kr := secrets.NewFake(nil)
	a, _ := startKeyring(t, t.TempDir(), `{"plugins":{"kept":true}}`, kr, nil)
	put := a.do("PUT", "/api/config", `{"model":{"apiKey":"sk-in-keyring"}}`, nil)
	if put.status != 200 || put.body["secrets"].(map[string]any)["model.apiKey"] != true {
		t.Fatalf("PUT: %d %v", put.status, put.body)
	}
	if store := put.body["secretStore"].(map[string]any); store["where"] != "keyring" ||
		store["service"] != secrets.ServiceFor(a.settings.Path()) || store["reason"] != "" {
		t.Fatalf("secretStore %v", store)
	}
	if kr.Values()["model.apiKey"] != "sk-in-keyring" {
		t.Fatalf("keyring %v", kr.Values())
	}
	file, raw := fileOf(t, a.App)
	if strings.Contains(raw, "sk-in-keyring") || !slices.Equal(strList(file[config.KeptKey]), []string{"model.apiKey"}) ||
		file["plugins"] == nil {
		t.Fatalf("file:\n%s", raw)
	}
	if got := a.settings.Live().Model.APIKey; got != "sk-in-keyring" {
		t.Fatalf("the model uses %q", got)
	}

	// Another setting's save leaves the key where it is, untouched.
	calls := len(kr.Calls())
	if put := a.do("PUT", "/api/config", `{"character":{"name":"Ada"}}`, nil); put.status != 200 {
		t.Fatalf("PUT: %d %v", put.status, put.body)
	}
	if _, raw := fileOf(t, a.App); strings.Contains(raw, "sk-in-keyring") || len(kr.Calls()) != calls {
		t.Fatalf("another save touched the key: calls %v, file:\n%s", kr.Calls()[calls:], raw)
	}
	if a.settings.Live().Model.APIKey != "sk-in-keyring" {
		t.Fatal("another save lost the key")
	}

	// The setup screen's change of provider drops the key, from the keyring too.
	if res := a.do("PUT", "/api/provider", `{"provider":"anthropic","model":"claude"}`, nil); res.status != 200 {
		t.Fatalf("provider: %d %v", res.status, res.body)
	}
	file, _ = fileOf(t, a.App)
	if _, ok := kr.Values()["model.apiKey"]; ok || file[config.KeptKey] != nil || a.settings.Live().Model.APIKey != "" {
		t.Fatalf("the key outlived its provider: keyring %v, file %v", kr.Values(), file[config.KeptKey])
	}
}

func TestKeyringClearedInSettingsIsForgotten(t *testing.T) {
	kr := secrets.NewFake(map[string]string{"model.apiKey": "sk-old"})
	a, _ := startKeyring(t, t.TempDir(), `{"secretsInKeyring":["model.apiKey"]}`, kr, nil)
	if got := a.settings.Live().Model.APIKey; got != "sk-old" {
		t.Fatalf("read back %q", got)
	}
	put := a.do("PUT", "/api/config", `{"model":{"apiKey":null}}`, nil)
	if put.status != 200 || put.body["secrets"].(map[string]any)["model.apiKey"] != false {
		t.Fatalf("PUT: %d %v", put.status, put.body)
	}
	if file, _ := fileOf(t, a.App); len(kr.Values()) != 0 || file[config.KeptKey] != nil {
		t.Fatalf("keyring %v, file %v", kr.Values(), file)
	}
}

// An old file's secrets move at start: to the keyring, then out of the file, with
// every other key kept and no change announced; the next start reads them back.
func TestKeyringMovesTheFilesSecretsAtStart(t *testing.T) {
	kr := secrets.NewFake(nil)
	dir := t.TempDir()
	old := `{"api":{"token":"a-long-configured-token","terminalToken":"term-token"},"model":{"apiKey":"sk-old"},"x":{"y":1}}`
	a, _ := startKeyring(t, dir, old, kr, nil)
	want := map[string]string{"api.token": "a-long-configured-token", "api.terminalToken": "term-token", "model.apiKey": "sk-old"}
	if got := kr.Values(); !equalMaps(got, want) {
		t.Fatalf("keyring %v", got)
	}
	file, raw := fileOf(t, a.App)
	for _, v := range want {
		if strings.Contains(raw, v) {
			t.Fatalf("%s is still in the file:\n%s", v, raw)
		}
	}
	if file["x"] == nil || len(strList(file[config.KeptKey])) != 3 {
		t.Fatalf("file:\n%s", raw)
	}
	if reasons, configErr := a.settings.Pending(); len(reasons) != 0 || configErr != "" {
		t.Fatalf("the move looked like a change: %v %q", reasons, configErr)
	}
	if got := a.do("GET", "/api/config", nil, map[string]string{"Authorization": "Bearer a-long-configured-token"}); got.status != 200 {
		t.Fatalf("the configured token: %d", got.status)
	}
	a.Stop()

	again, _ := startKeyring(t, dir, "", kr, nil)
	cfg := again.settings.Live()
	if cfg.API.Token != want["api.token"] || cfg.API.TerminalToken != want["api.terminalToken"] || cfg.Model.APIKey != want["model.apiKey"] {
		t.Fatalf("read back %+v %+v", cfg.API, cfg.Model)
	}
	if n := strings.Count(strings.Join(kr.Calls(), " "), "set "); n != 3 {
		t.Fatalf("%d sets, want 3 (nothing moved twice): %v", n, kr.Calls())
	}
}

func equalMaps(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

// A secret written into the file by hand while Wisp runs takes effect like any hand
// edit, then moves to the keyring; the move changes nothing more and does not loop.
func TestKeyringMovesAHandEditedSecret(t *testing.T) {
	kr := secrets.NewFake(nil)
	a, logs := startKeyring(t, t.TempDir(), `{}`, kr, nil)
	w := dialSocket(t, a.App, "")
	handEdit(t, a.App, `{"api":{"terminalToken":"by-hand"},"mood":"kept"}`)
	frame := w.waitFor(t, ofType("restart-required"))
	if got := strList(frame["reasons"]); !slices.Equal(got, []string{"Terminal token set"}) {
		t.Fatalf("reasons %v", got)
	}
	if m := w.waitFor(t, ofType("config-changed")); !slices.Equal(strList(m["paths"]), []string{"api.terminalToken"}) {
		t.Fatalf("config-changed %v", m)
	}
	logs.await(t, movedMsg)
	file, raw := fileOf(t, a.App)
	if strings.Contains(raw, "by-hand") || file["mood"] != "kept" || kr.Values()["api.terminalToken"] != "by-hand" {
		t.Fatalf("keyring %v, file:\n%s", kr.Values(), raw)
	}
	// The next change reported is the next edit's: the move announced nothing.
	handEdit(t, a.App, `{"api":{"terminalToken":""},"character":{"name":"Ada"},"mood":"kept","secretsInKeyring":["api.terminalToken"]}`)
	for {
		m := w.waitFor(t, func(m map[string]any) bool { return m["type"] != "status" })
		if m["type"] != "config-changed" || !slices.Equal(strList(m["paths"]), []string{"character.name"}) {
			t.Fatalf("after the move, before the next edit: %v", m)
		}
		break
	}
	if reasons, _ := a.settings.Pending(); !slices.Equal(reasons, []string{"Terminal token set"}) {
		t.Fatalf("reasons %v", reasons)
	}
	if a.settings.Live().API.TerminalToken != "by-hand" {
		t.Fatal("the moved token is not in use")
	}
}

// Taking a secret off the file's list by hand clears it, in the keyring too.
func TestKeyringForgetsWhatTheFileNoLongerLists(t *testing.T) {
	deleted := make(chan string, 4)
	kr := secrets.NewFake(map[string]string{"model.apiKey": "sk-1", "api.token": "orphan"})
	kr.Done = func(op, name string) {
		if op == "delete" {
			deleted <- name
		}
	}
	a, _ := startKeyring(t, t.TempDir(), `{"secretsInKeyring":["model.apiKey"]}`, kr, nil)
	if got := <-deleted; got != "api.token" { // not listed: a leftover, removed at start
		t.Fatalf("deleted %s", got)
	}
	if a.settings.Live().API.Token != "" || a.settings.Live().Model.APIKey != "sk-1" {
		t.Fatalf("%+v %+v", a.settings.Live().API, a.settings.Live().Model)
	}
	w := dialSocket(t, a.App, "")
	handEdit(t, a.App, `{}`)
	if m := w.waitFor(t, ofType("config-changed")); !slices.Equal(strList(m["paths"]), []string{"model.apiKey"}) {
		t.Fatalf("config-changed %v", m)
	}
	if got := <-deleted; got != "model.apiKey" || len(kr.Values()) != 0 {
		t.Fatalf("deleted %s; keyring %v", got, kr.Values())
	}
}
