package config

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func patchOf(t testing.TB, s string) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(s), &m); err != nil {
		t.Fatal(err)
	}
	return m
}

func fileWith(t *testing.T, content string) *File {
	t.Helper()
	path := filepath.Join(t.TempDir(), "wisp.json")
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	f, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func TestPatchMergesAndKeepsTheRest(t *testing.T) {
	f := fileWith(t, `{"character":{"name":"Ada","mood":"curious"},"model":{"apiKey":"sk-1","name":"m"},"plugins":{"x":1}}`)
	err := f.Patch(patchOf(t, `{"features":{"shellEnabled":true},"character":{"bio":"new bio"},"model":{"temperature":1.5,"name":null}}`))
	if err != nil {
		t.Fatal(err)
	}
	c := f.Config
	if !c.Features.ShellEnabled || c.Character.Bio != "new bio" || c.Model.Temperature != 1.5 {
		t.Fatalf("patch not applied: %+v", c)
	}
	if c.Character.Name != "Ada" || c.Model.APIKey != "sk-1" {
		t.Fatalf("untouched settings changed: %+v", c)
	}
	if c.Model.Name != "" {
		t.Fatalf("null should reset model.name to its default, got %q", c.Model.Name)
	}
	if err := f.Save(); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(f.Path)
	for _, keep := range []string{`"mood": "curious"`, `"plugins"`} {
		if !strings.Contains(string(data), keep) {
			t.Errorf("saved file lost %s:\n%s", keep, data)
		}
	}
}

func TestPatchRefusals(t *testing.T) {
	cases := []struct{ patch, want string }{
		{`{"nope":1}`, "unknown setting: nope"},
		{`{"server":{"colour":"red"}}`, "unknown setting: server.colour"},
		{`{"server":7}`, "server must be an object of settings"},
		{`{"server":{"host":"0.0.0.0"}}`, "server.host can only be changed in the config file"},
		{`{"api":{"token":"x"}}`, "api.token can only be changed in the config file"},
		{`{"server":{"port":"3000"}}`, "server.port must be a whole number"},
		{`{"server":{"port":30.5}}`, "server.port must be a whole number"},
		{`{"features":{"shellEnabled":"yes"}}`, "features.shellEnabled must be true or false"},
		{`{"model":{"temperature":"hot"}}`, "model.temperature must be a number"},
		{`{"character":{"name":{"first":"A"}}}`, "character.name must be a string"},
		{`{"terminal":{"maxConcurrent":40}}`, "terminal.maxConcurrent must be 1-16, got 40"},
		{`{"ui":{"theme":"neon"}}`, `ui.theme must be system, light or dark, got "neon"`},
	}
	for _, tc := range cases {
		t.Run(tc.patch, func(t *testing.T) {
			f := fileWith(t, `{"character":{"name":"Ada"}}`)
			before := f.Config
			err := f.Patch(patchOf(t, tc.patch))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want %q", err, tc.want)
			}
			if strings.Contains(err.Error(), f.Path) {
				t.Errorf("error %q names the file path", err)
			}
			if !reflect.DeepEqual(before, f.Config) {
				t.Fatal("a refused patch changed the config")
			}
		})
	}
}

func TestPublicHidesSecrets(t *testing.T) {
	c := Default()
	c.API.Token, c.Model.APIKey = "tok", "sk-live"
	m, err := Public(c)
	if err != nil {
		t.Fatal(err)
	}
	data, _ := json.Marshal(m)
	for _, secret := range []string{"tok", "sk-live", "apiKey", "token"} {
		if strings.Contains(string(data), `"`+secret+`"`) {
			t.Errorf("public config shows %s: %s", secret, data)
		}
	}
	set := SecretsSet(c)
	if !set["api.token"] || !set["model.apiKey"] || set["api.terminalToken"] || len(set) != 6 {
		t.Errorf("SecretsSet = %v", set)
	}
}

// Any JSON object as a patch either is refused, leaving the file as it was, or gives a
// config that validates.
func FuzzPatch(f *testing.F) {
	for _, s := range []string{`{}`, `{"server":{"port":3000}}`, `{"model":null}`, `{"features":{"shellEnabled":true}}`,
		`{"terminal":{"maxConcurrent":0}}`, `{"x":{"y":1}}`, `{"server":{"allowedOrigins":["a"]}}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var patch map[string]any
		if json.Unmarshal([]byte(s), &patch) != nil || patch == nil {
			return
		}
		file := &File{Path: "fuzz.json", Config: Default(), raw: map[string]any{}}
		before := file.Config
		if err := file.Patch(patch); err != nil {
			if !reflect.DeepEqual(before, file.Config) {
				t.Fatalf("refused patch %s changed the config", s)
			}
			return
		}
		if err := file.Config.Validate(); err != nil {
			t.Fatalf("patch %s gave an invalid config: %v", s, err)
		}
	})
}
