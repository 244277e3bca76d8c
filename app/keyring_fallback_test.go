package app

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/wispapp/wisp/app/config"
	"github.com/wispapp/wisp/secrets"
)

// When no keyring can be used, the file keeps the secrets, as before the keyring.

func TestKeyringThatFailsLeavesSecretsInTheFile(t *testing.T) {
	noBus := errors.New("no D-Bus session bus (DBUS_SESSION_BUS_ADDRESS is not set)")
	kr := secrets.NewFake(map[string]string{"model.apiKey": "unreachable"})
	kr.Fail = func(string, string) error { return noBus }
	a, _ := startKeyring(t, t.TempDir(), `{"secretsInKeyring":["model.apiKey"],"api":{"token":"a-long-configured-token"}}`, kr, nil)
	auth := map[string]string{"Authorization": "Bearer a-long-configured-token"}
	store := secretStoreOf(t, a, auth)
	if store["where"] != "file" || store["reason"] != noBus.Error() || !slices.Equal(strList(store["unread"]), []string{"model.apiKey"}) {
		t.Fatalf("secretStore %v", store)
	}
	if a.settings.Live().API.Token != "a-long-configured-token" {
		t.Fatal("the file's token is not in use")
	}
	put := a.do("PUT", "/api/config", `{"model":{"apiKey":"sk-in-file"}}`, auth)
	if put.status != 200 {
		t.Fatalf("PUT: %d %v", put.status, put.body)
	}
	if _, raw := fileOf(t, a.App); !strings.Contains(raw, "sk-in-file") || !strings.Contains(raw, "a-long-configured-token") {
		t.Fatalf("file:\n%s", raw)
	}
	if a.settings.Live().Model.APIKey != "sk-in-file" {
		t.Fatal("the saved key is not in use")
	}
	if slices.ContainsFunc(kr.Calls(), func(c string) bool { return !strings.HasPrefix(c, "get ") }) || len(kr.Calls()) != 1 {
		t.Fatalf("after the first failure the keyring was asked again: %v", kr.Calls())
	}
}

// A keyring that fails on a save: the secret stays in the file, and the file keeps
// secrets from then on, said with the reason.
func TestKeyringFailingOnSaveFallsBackToTheFile(t *testing.T) {
	kr := secrets.NewFake(nil)
	a, _ := startKeyring(t, t.TempDir(), `{}`, kr, nil)
	kr.Fail = func(op, _ string) error {
		if op == "set" {
			return errors.New("the keyring did not answer within 3s (locked behind a password prompt, or stuck)")
		}
		return nil
	}
	put := a.do("PUT", "/api/config", `{"model":{"apiKey":"sk-fallback"}}`, nil)
	if put.status != 200 {
		t.Fatalf("PUT: %d %v", put.status, put.body)
	}
	if store := put.body["secretStore"].(map[string]any); store["where"] != "file" || !strings.Contains(str(store["reason"]), "did not answer") {
		t.Fatalf("secretStore %v", store)
	}
	if file, raw := fileOf(t, a.App); !strings.Contains(raw, "sk-fallback") || file[config.KeptKey] != nil {
		t.Fatalf("file:\n%s", raw)
	}
	if a.settings.Live().Model.APIKey != "sk-fallback" {
		t.Fatal("the saved key is not in use")
	}
}

// The environment still overrides a secret the keyring keeps.
func TestKeyringSecretYieldsToTheEnvironment(t *testing.T) {
	kr := secrets.NewFake(map[string]string{"model.apiKey": "sk-keyring"})
	a, _ := startKeyring(t, t.TempDir(), `{"secretsInKeyring":["model.apiKey"]}`, kr, map[string]string{"OPENAI_API_KEY": "sk-env"})
	if got := a.settings.Live().Model.APIKey; got != "sk-env" {
		t.Fatalf("in use: %q", got)
	}
}
