package config

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

func envMap(m map[string]string) Getenv { return func(k string) string { return m[k] } }

func TestLoadCreatesDefaultsPrivately(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state", "wisp.json")
	f, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if f.Config.Server.Port != DefaultPort || f.Config.Character.Name != "Wisp" {
		t.Fatalf("defaults not applied: %+v", f.Config)
	}
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if st.Mode().Perm() != 0o600 {
		t.Fatalf("mode = %v, want 0600", st.Mode().Perm())
	}
	again, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if again.Config.Server.Port != DefaultPort {
		t.Fatalf("reload lost defaults: %+v", again.Config)
	}
}

func TestPartialFileTakesDefaultsAndKeepsUnknownKeys(t *testing.T) {
	path := filepath.Join(t.TempDir(), "wisp.json")
	in := `{"character":{"name":"Ada","mood":"curious"},"plugins":{"x":[1,2]},"server":{"port":3000}}`
	if err := os.WriteFile(path, []byte(in), 0o600); err != nil {
		t.Fatal(err)
	}
	f, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if f.Config.Character.Name != "Ada" || f.Config.Server.Port != 3000 {
		t.Fatalf("file values lost: %+v", f.Config)
	}
	if f.Config.Server.Host != "127.0.0.1" || f.Config.Terminal.MaxConcurrent != 2 {
		t.Fatalf("missing keys did not take defaults: %+v", f.Config)
	}
	f.Config.Character.Bio = "changed"
	if err := f.Save(); err != nil {
		t.Fatal(err)
	}
	var saved map[string]any
	data, _ := os.ReadFile(path)
	if err := json.Unmarshal(data, &saved); err != nil {
		t.Fatal(err)
	}
	char := saved["character"].(map[string]any)
	if char["mood"] != "curious" || char["bio"] != "changed" || char["name"] != "Ada" {
		t.Fatalf("nested unknown key or change lost: %v", char)
	}
	if _, ok := saved["plugins"].(map[string]any)["x"]; !ok {
		t.Fatalf("top-level unknown key lost: %v", saved)
	}
}

func TestInvalidFiles(t *testing.T) {
	cases := map[string]struct{ body, want string }{
		"not json":       {`{"server":`, "not valid JSON"},
		"wrong type":     {`{"server":{"port":"x"}}`, "server.port"},
		"port range":     {`{"server":{"port":70000}}`, "server.port must be 0-65535"},
		"provider":       {`{"model":{"provider":"acme"}}`, "model.provider"},
		"terminal limit": {`{"terminal":{"maxConcurrent":17}}`, "terminal.maxConcurrent must be 1-16"},
		"interval":       {`{"autonomy":{"intervalMs":-1}}`, "autonomy.intervalMs must not be negative"},
		"theme":          {`{"ui":{"theme":"neon"}}`, "ui.theme"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "wisp.json")
			if err := os.WriteFile(path, []byte(tc.body), 0o600); err != nil {
				t.Fatal(err)
			}
			_, err := Load(path)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want it to mention %q", err, tc.want)
			}
			after, _ := os.ReadFile(path)
			if string(after) != tc.body {
				t.Fatalf("an invalid file was rewritten: %q", after)
			}
		})
	}
}

func TestEnvOverridesAreNotWrittenBack(t *testing.T) {
	path := filepath.Join(t.TempDir(), "wisp.json")
	f, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	env := envMap(map[string]string{
		"WISP_PORT": "4000", "WISP_API_TOKEN": "tok", "WISP_PROVIDER": "anthropic",
		"ANTHROPIC_API_KEY": "ak", "OPENAI_API_KEY": "ok", "WISP_MODEL": "m",
		"WISP_TERMINAL_MAX_CONCURRENT": "4", "WISP_TERMINAL_MAX_DURATION_MS": "5000",
	})
	eff, err := f.Config.WithEnv(env)
	if err != nil {
		t.Fatal(err)
	}
	if eff.Server.Port != 4000 || eff.API.Token != "tok" || eff.Model.Provider != "anthropic" ||
		eff.Model.APIKey != "ak" || eff.Model.Name != "m" || eff.Terminal.MaxConcurrent != 4 ||
		eff.Terminal.MaxDurationMs != 5000 {
		t.Fatalf("overrides not applied: %+v", eff)
	}
	if err := f.Save(); err != nil {
		t.Fatal(err)
	}
	back, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if back.Config.API.Token != "" || back.Config.Server.Port != DefaultPort || back.Config.Model.APIKey != "" {
		t.Fatalf("env values leaked into the file: %+v", back.Config)
	}
}

func TestEnvErrors(t *testing.T) {
	for _, env := range []map[string]string{
		{"WISP_PORT": "abc"},
		{"WISP_PORT": "99999"},
		{"WISP_TERMINAL_MAX_DURATION_MS": "10"},
	} {
		if _, err := Default().WithEnv(envMap(env)); err == nil {
			t.Errorf("env %v accepted", env)
		}
	}
}

func TestStateDirAndPath(t *testing.T) {
	cases := []struct {
		env  map[string]string
		want string
	}{
		{map[string]string{"WISP_STATE_DIR": "/s", "XDG_STATE_HOME": "/x", "HOME": "/h"}, "/s"},
		{map[string]string{"XDG_STATE_HOME": "/x", "HOME": "/h"}, "/x/wisp"},
		{map[string]string{"HOME": "/h"}, "/h/.local/state/wisp"},
	}
	for _, tc := range cases {
		got, err := StateDir(envMap(tc.env))
		if err != nil || got != tc.want {
			t.Errorf("StateDir(%v) = %q, %v; want %q", tc.env, got, err, tc.want)
		}
	}
	if p := Path(envMap(nil), "/s"); p != "/s/wisp.json" {
		t.Errorf("Path = %q", p)
	}
	if p := Path(envMap(map[string]string{"WISP_CONFIG_PATH": "/c.json"}), "/s"); p != "/c.json" {
		t.Errorf("Path with override = %q", p)
	}
}

// Whatever the file holds, Parse either refuses it or returns a config that validates
// and survives a save and reload unchanged.
func FuzzParse(f *testing.F) {
	for _, s := range []string{`{}`, `{"server":{"port":3000}}`, `{"x":{"y":[1,{"z":null}]}}`,
		`{"model":{"temperature":3}}`, `[]`, `null`, `{"ui":{"theme":"dark"},"character":{"name":"Ada"}}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		file, err := Parse("fuzz.json", data)
		if err != nil {
			return
		}
		if err := file.Config.Validate(); err != nil {
			t.Fatalf("Parse accepted an invalid config: %v", err)
		}
		file.Path = filepath.Join(t.TempDir(), "wisp.json")
		if err := file.Save(); err != nil {
			t.Fatalf("save: %v", err)
		}
		back, err := Load(file.Path)
		if err != nil {
			t.Fatalf("reload: %v", err)
		}
		if !reflect.DeepEqual(normalize(back.Config), normalize(file.Config)) {
			t.Fatalf("round trip changed the config:\n%+v\n%+v", file.Config, back.Config)
		}
	})
}

// normalize treats nil and empty lists alike (JSON null and [] both mean "none").
func normalize(c Config) Config {
	for _, p := range []*[]string{&c.Server.AllowedOrigins, &c.Server.AllowedHosts} {
		if len(*p) == 0 {
			*p = nil
		}
	}
	return c
}

func TestEnvOverridesNamesTheVariables(t *testing.T) {
	env := envMap(map[string]string{"WISP_PORT": "3000", "ANTHROPIC_API_KEY": "k", "OPENAI_API_KEY": "o", "WISP_PROVIDER": "anthropic"})
	got := EnvOverrides(Default(), env)
	want := map[string]string{"server.port": "WISP_PORT", "model.provider": "WISP_PROVIDER", "model.apiKey": "ANTHROPIC_API_KEY"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("EnvOverrides = %v, want %v", got, want)
	}
	c := Default()
	c.Model.Provider = "ollama"
	if got := EnvOverrides(c, envMap(map[string]string{"OPENAI_API_KEY": "o"})); len(got) != 0 {
		t.Fatalf("no key variable reaches Ollama, got %v", got)
	}
}

func TestAutonomyIntervalIsClamped(t *testing.T) {
	cases := []struct {
		ms   int
		want time.Duration
	}{
		{0, MinInterval},
		{1000, MinInterval},
		{5000, 5 * time.Second},
		{30000, 30 * time.Second},
		{600000, 10 * time.Minute},
		{3600000, MaxInterval},
	}
	for _, tc := range cases {
		if got := (Autonomy{IntervalMs: tc.ms}).Interval(); got != tc.want {
			t.Errorf("intervalMs %d: got %v, want %v", tc.ms, got, tc.want)
		}
	}
	if err := (func() Config { c := Default(); c.Autonomy.IntervalMs = 1000; return c })().Validate(); err != nil {
		t.Errorf("a short interval is clamped, not refused: %v", err)
	}
}

// MCP servers are Wisp's to add and remove: a server or env variable taken out is
// gone from the saved file; what another app wrote in a server stays.
func TestMCPServersSaveWhole(t *testing.T) {
	path := filepath.Join(t.TempDir(), "wisp.json")
	f, err := Parse(path, []byte(`{"mcpServers": {
		"fs": {"command": "npx", "args": ["x"], "env": {"A": "1", "B": "2"}, "type": "stdio"},
		"gone": {"url": "https://example.com/mcp"}}}`))
	if err != nil {
		t.Fatal(err)
	}
	fs := f.Config.MCPServers["fs"]
	fs.Env = map[string]string{"B": "2"}
	f.Config.MCPServers = map[string]MCPServer{"fs": fs}
	if err := f.Save(); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(path)
	var saved struct {
		MCPServers map[string]map[string]any `json:"mcpServers"`
	}
	if err := json.Unmarshal(data, &saved); err != nil {
		t.Fatal(err)
	}
	got := saved.MCPServers
	if _, ok := got["gone"]; ok || got["fs"]["type"] != "stdio" || fmt.Sprint(got["fs"]["env"]) != "map[B:2]" {
		t.Errorf("saved %s", data)
	}
}

func TestVoiceSettingsAreChecked(t *testing.T) {
	ok := Default()
	ok.Voice.TTS.BaseURL, ok.Voice.STT.BaseURL = "http://127.0.0.1:8880/v1", "https://api.groq.com/openai/v1"
	ok.Voice.TTS.Speed = MaxSpeechSpeed
	if err := ok.Validate(); err != nil {
		t.Fatalf("valid voice settings refused: %v", err)
	}
	for _, c := range []struct {
		name string
		set  func(v *Voice)
		want string
	}{
		{"ftp", func(v *Voice) { v.TTS.BaseURL = "ftp://example.com/v1" }, "voice.tts.baseURL must be an http(s) URL"},
		{"no scheme", func(v *Voice) { v.STT.BaseURL = "localhost:8000/v1" }, "voice.stt.baseURL must be an http(s) URL"},
		{"no host", func(v *Voice) { v.STT.BaseURL = "http:///v1" }, "voice.stt.baseURL"},
		{"credentials", func(v *Voice) { v.TTS.BaseURL = "https://user:pw@example.com/v1" }, "voice.tts.baseURL"},
		{"spaces", func(v *Voice) { v.TTS.BaseURL = " http://example.com/v1" }, "voice.tts.baseURL"},
		{"slow", func(v *Voice) { v.TTS.Speed = 0.1 }, "voice.tts.speed must be 0.25-4, got 0.1"},
		{"fast", func(v *Voice) { v.TTS.Speed = 5 }, "voice.tts.speed must be 0.25-4, got 5"},
		{"zero", func(v *Voice) { v.TTS.Speed = 0 }, "voice.tts.speed"},
		{"not a number", func(v *Voice) { v.TTS.Speed = math.NaN() }, "voice.tts.speed"},
		{"model", func(v *Voice) { v.TTS.Model = strings.Repeat("m", 201) }, "voice.tts.model must be at most 200 bytes"},
		{"voice", func(v *Voice) { v.TTS.Voice = strings.Repeat("v", 201) }, "voice.tts.voice"},
		{"stt model", func(v *Voice) { v.STT.Model = strings.Repeat("m", 201) }, "voice.stt.model"},
		{"key", func(v *Voice) { v.STT.APIKey = strings.Repeat("k", 4097) }, "voice.stt.apiKey must be at most 4096 bytes"},
	} {
		bad := Default()
		c.set(&bad.Voice)
		if err := bad.Validate(); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
	}
}
