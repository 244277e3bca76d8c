package app

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/wispapp/wisp/app/api"
	"github.com/wispapp/wisp/app/config"
	"github.com/wispapp/wisp/app/settings"
	"github.com/wispapp/wisp/app/wire"
	"github.com/wispapp/wisp/emotes"
	"github.com/wispapp/wisp/terminal"
)

//go:generate go test -tags sqlite_fts5 -run ^TestWire(Golden|Types)$ -update .

// goldenPath is the golden wire file the frontend's decoder tests read.
var goldenPath = filepath.Join("..", "frontend", "src", "api", "testdata", "wire.golden.json")

// golden is every frame of the catalog (by route and type) and every shape the API
// answers with (by name), as examples with every field used.
type golden struct {
	Frames map[wire.Route]map[string][]json.RawMessage `json:"frames"`
	Shapes map[string][]json.RawMessage                `json:"shapes"`
}

// restExamples are the answers of the settings, provider, terminal and emote routes.
func restExamples() map[string][]any {
	status := wire.ShapeExamples()["Status"][0].(wire.Status)
	public, _ := config.Public(config.Default())
	exit, ended := 0, int64(1763715601500)
	running := terminal.Info{RunID: "run-1763715600000-a1b2c3", Command: "top", ClientID: "tab-1", Status: terminal.StatusRunning,
		StartedAt: 1763715600000, DurationMs: 800, MaxDurationMs: 300000, Cols: 80, Rows: 24}
	done := terminal.Info{RunID: "run-1763715600001-d4e5f6", Command: "make", Agent: true, Captured: true, Status: terminal.StatusError,
		ExitCode: &exit, Error: "the shell could not be started", StartedAt: 1763715600000, EndedAt: &ended, DurationMs: 1500,
		MaxDurationMs: 300000, Cols: 120, Rows: 40}
	builtin := emotes.Builtin()[0]
	user := emotes.Emote{ID: "bow", Name: "Bow", Description: "Bows politely", Category: "custom", GLBPath: "/emotes/bow.glb",
		Duration: 2, Loop: false, Source: emotes.SourceUser, Status: "Bowing"}
	provider := api.ProviderInfo{Provider: "ollama", BaseURL: "http://127.0.0.1:11434/v1", Model: "llama3.2", HasAPIKey: false, Vision: "yes",
		CanRespond: false, Reason: "Ollama has no model to use", EnvOverrides: []string{"WISP_MODEL"}}
	provider.Ollama.Detected, provider.Ollama.Models = true, []string{"llama3.2:latest"}
	return map[string][]any{
		"ConfigView": {settings.ConfigView{Path: "/home/ada/.local/state/wisp/wisp.json", Config: public,
			Secrets: map[string]bool{"api.token": false, "model.apiKey": true}, Fields: config.Fields(),
			SecretStore: wire.SecretStore{Where: wire.SecretsInFile, Service: "wisp:/home/ada/.local/state/wisp/wisp.json",
				Reason: "no D-Bus session bus (DBUS_SESSION_BUS_ADDRESS is not set)", Unread: []string{"api.terminalToken"}},
			Overrides: map[string]string{"model.name": "WISP_MODEL"}, ConfigError: "config file wisp.json is not valid JSON",
			PendingRestart: true, PendingRestartReasons: []string{"Shell access enabled"}}},
		"ShellView": {settings.ShellView{Enabled: true, PendingRestart: true, PendingRestartReasons: []string{"Shell access enabled"}}},
		"RestartResult": {api.RestartResult{OK: true, Status: status,
			Connection: api.ConnectionInfo{BaseURL: "http://127.0.0.1:3000", WSURL: "ws://127.0.0.1:3000/ws"}}},
		"ProviderInfo": {provider},
		"TerminalRuns": {api.TerminalRuns{Enabled: true, TokenRequired: true, MaxConcurrent: 2, MaxDurationMs: 300000,
			ConfigPath: "/home/ada/.local/state/wisp/wisp.json", Runs: []terminal.Info{running, done}}},
		"TerminalSnapshot": {terminal.Snapshot{Info: done, LastSeq: 7, ScrollbackTruncated: true,
			Scrollback: []terminal.Chunk{{Seq: 6, Event: terminal.KindStdout, Data: "load average"}, {Seq: 7, Event: terminal.KindStderr, Data: "!"}}}},
		"TerminalResult": {terminal.Result{OK: false, RunID: "run-1763715600001-d4e5f6", Command: "sleep 999", ExitCode: 124,
			Stdout: "out", Stderr: "err", TimedOut: true, Truncated: true, MaxDurationMs: 1000, DurationMs: 1003, Error: "timed out"}},
		"EmoteList": {api.EmoteList{Avatar: api.AvatarPath, Emotes: []emotes.Emote{builtin, user}}},
	}
}

// buildGolden encodes every example.
func buildGolden(t *testing.T) (golden, map[string][]any) {
	t.Helper()
	g := golden{Frames: map[wire.Route]map[string][]json.RawMessage{}, Shapes: map[string][]json.RawMessage{}}
	for _, s := range wire.Catalog {
		if g.Frames[s.Route] == nil {
			g.Frames[s.Route] = map[string][]json.RawMessage{}
		}
		g.Frames[s.Route][s.Type] = nil
	}
	values := map[string][]any{}
	for _, f := range wire.Examples() {
		data, err := wire.Encode(f)
		if err != nil {
			t.Fatal(err)
		}
		route, ok := routeOf(f)
		if !ok {
			t.Fatalf("example %s (%T) is not in the catalog", f.FrameType(), f)
		}
		g.Frames[route][f.FrameType()] = append(g.Frames[route][f.FrameType()], data)
		values[reflect.TypeOf(f).Name()] = append(values[reflect.TypeOf(f).Name()], f)
	}
	shapes := wire.ShapeExamples()
	for name, ex := range restExamples() {
		shapes[name] = ex
	}
	for name, examples := range shapes {
		for _, v := range examples {
			g.Shapes[name] = append(g.Shapes[name], wire.JSON(v))
			values[name] = append(values[name], v)
		}
	}
	return g, values
}

// routeOf finds a frame's route in the catalog (a type and its Go struct).
func routeOf(f wire.Frame) (wire.Route, bool) {
	for _, s := range wire.Catalog {
		if s.Type == f.FrameType() && reflect.TypeOf(s.Shape) == reflect.TypeOf(f) {
			return s.Route, true
		}
	}
	return "", false
}

// TestWireGolden keeps frontend/src/api/testdata/wire.golden.json equal to what Wisp
// sends, with an example of every catalog frame and every field of every shape: the
// frontend's decoder tests read it, so a frame or field that drifts fails one side or
// the other. Run `go generate ./app` to rewrite it after a deliberate change.
func TestWireGolden(t *testing.T) {
	g, values := buildGolden(t)
	for route, types := range g.Frames {
		for typ, examples := range types {
			if len(examples) == 0 {
				t.Errorf("the catalog's %s frame %q has no example", route, typ)
			}
		}
	}
	for name, vs := range values {
		for _, missing := range uncovered(vs) {
			t.Errorf("%s: no example sets %s", name, missing)
		}
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(g); err != nil {
		t.Fatal(err)
	}
	if *update {
		if err := os.WriteFile(goldenPath, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	have, err := os.ReadFile(goldenPath)
	if err != nil {
		t.Fatalf("%v: run go generate ./app", err)
	}
	if !bytes.Equal(have, buf.Bytes()) {
		t.Fatalf("%s is not what Wisp sends: run `go generate ./app`, then make the frontend's decoders pass", goldenPath)
	}
}

// uncovered lists the JSON fields (as Type.field) of the structs in vs, nested ones
// included, that no example sends.
func uncovered(vs []any) []string {
	seen := map[string]bool{}
	all := map[string]bool{}
	for _, v := range vs {
		data := wire.JSON(v)
		if f, ok := v.(wire.Frame); ok {
			data, _ = wire.Encode(f) // a hand-written encoder may leave fields out
		}
		var tree any
		_ = json.Unmarshal(data, &tree)
		walkFields(reflect.ValueOf(v), tree, seen, all)
	}
	var out []string
	for f := range all {
		if !seen[f] {
			out = append(out, f)
		}
	}
	sort.Strings(out)
	return out
}

// walkFields marks the fields of the struct v that the JSON tree has, recursively.
func walkFields(v reflect.Value, tree any, seen, all map[string]bool) {
	for v.Kind() == reflect.Pointer || v.Kind() == reflect.Interface {
		if v.IsNil() {
			return
		}
		v = v.Elem()
	}
	switch v.Kind() {
	case reflect.Slice, reflect.Array:
		items, _ := tree.([]any)
		for i := 0; i < v.Len() && i < len(items); i++ {
			walkFields(v.Index(i), items[i], seen, all)
		}
	case reflect.Struct:
		obj, _ := tree.(map[string]any)
		for i := range v.NumField() {
			f := v.Type().Field(i)
			name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			if f.Anonymous && name == "" { // embedded: its fields are this object's
				walkFields(v.Field(i), tree, seen, all)
				continue
			}
			if name == "-" || !f.IsExported() {
				continue
			}
			if name == "" {
				name = f.Name
			}
			key := v.Type().Name() + "." + name
			all[key] = true
			if sub, ok := obj[name]; ok {
				seen[key] = true
				walkFields(v.Field(i), sub, seen, all)
			}
		}
	}
}

// Each frame of the catalog is listed once, with its struct's zero value.
func TestCatalogTypesAreUnique(t *testing.T) {
	var keys []string
	for _, s := range wire.Catalog {
		k := string(s.Route) + " " + s.Type
		if slices.Contains(keys, k) {
			t.Errorf("the catalog lists %s twice", k)
		}
		keys = append(keys, k)
		if s.Shape.FrameType() != "" {
			t.Errorf("%s: the catalog's shape is a zero value", k)
		}
	}
}
