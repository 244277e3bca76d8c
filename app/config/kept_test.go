package config

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestSecretPathsAreTheSecretSettings(t *testing.T) {
	want := []string{"api.token", "api.terminalToken", "model.apiKey", "voice.tts.apiKey", "voice.stt.apiKey", "web.search.apiKey"}
	if got := SecretPaths(); !reflect.DeepEqual(got, want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	var c Config
	c.SetSecret("model.apiKey", "sk")
	c.SetSecret("server.host", "0.0.0.0") // not a secret: left alone
	if c.Model.APIKey != "sk" || c.Secret("model.apiKey") != "sk" || c.Server.Host != "" || c.Secret("server.host") != "" {
		t.Fatalf("%+v", c)
	}
}

func TestKeptSecretsLeaveTheFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "wisp.json")
	in := `{"api":{"token":"t0k","x-note":"mine"},"model":{"apiKey":"sk-1","name":"m"},"plugins":{"a":1}}`
	if err := os.WriteFile(path, []byte(in), 0o600); err != nil {
		t.Fatal(err)
	}
	f, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Kept()) != 0 {
		t.Fatalf("kept %v", f.Kept())
	}
	f.Keep("model.apiKey")
	f.Keep("api.token")
	if err := f.Save(); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(path)
	if strings.Contains(string(data), "sk-1") || strings.Contains(string(data), "t0k") {
		t.Fatalf("a kept secret is still in the file:\n%s", data)
	}
	var raw map[string]any
	if err := json.Unmarshal(data, &raw); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(raw[KeptKey], []any{"api.token", "model.apiKey"}) {
		t.Fatalf("%s = %v", KeptKey, raw[KeptKey])
	}
	if raw["plugins"] == nil || raw["api"].(map[string]any)["x-note"] != "mine" || raw["model"].(map[string]any)["name"] != "m" {
		t.Fatalf("other keys were not kept:\n%s", data)
	}

	again, err := Read(path)
	if err != nil {
		t.Fatal(err)
	}
	if !again.IsKept("model.apiKey") || !again.IsKept("api.token") || again.IsKept("api.terminalToken") {
		t.Fatalf("kept after reading: %v", again.Kept())
	}
	values := map[string]string{"model.apiKey": "sk-1", "api.token": "t0k", "api.terminalToken": "unlisted"}
	c := again.WithKept(values)
	if c.Model.APIKey != "sk-1" || c.API.Token != "t0k" || c.API.TerminalToken != "" {
		t.Fatalf("filled %+v", c.API)
	}
	again.Config.Model.APIKey = "sk-hand" // a value in the file wins
	if got := again.WithKept(values).Model.APIKey; got != "sk-hand" {
		t.Fatalf("the file's value lost to the keyring's: %q", got)
	}

	again.Unkeep("model.apiKey")
	again.Unkeep("api.token")
	if err := again.Clone().Save(); err != nil {
		t.Fatal(err)
	}
	data, _ = os.ReadFile(path)
	if strings.Contains(string(data), KeptKey) {
		t.Fatalf("an empty list stays in the file:\n%s", data)
	}
}

func TestKeptListMustBeStrings(t *testing.T) {
	for _, in := range []string{`{"secretsInKeyring":"model.apiKey"}`, `{"secretsInKeyring":[1]}`} {
		if _, err := Parse("wisp.json", []byte(in)); err == nil || !strings.Contains(err.Error(), KeptKey+" must be a list") {
			t.Errorf("%s: %v", in, err)
		}
	}
	f, err := Parse("wisp.json", []byte(`{"secretsInKeyring":["model.apiKey","mcpServers.gh.env.TOKEN"]}`))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(f.Kept(), []string{"mcpServers.gh.env.TOKEN", "model.apiKey"}) {
		t.Fatalf("kept %v", f.Kept())
	}
}

func TestPatchCannotTouchTheKeptList(t *testing.T) {
	f, err := Parse("wisp.json", []byte(`{"secretsInKeyring":["model.apiKey"]}`))
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Patch(map[string]any{KeptKey: []any{}}); err == nil || !strings.Contains(err.Error(), "unknown setting") {
		t.Fatalf("err %v", err)
	}
	if err := f.Patch(map[string]any{"model": map[string]any{"name": "m2"}}); err != nil {
		t.Fatal(err)
	}
	if !f.IsKept("model.apiKey") {
		t.Fatal("a patch lost the list")
	}
}
