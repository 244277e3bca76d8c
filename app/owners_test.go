package app

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/wispapp/wisp/app/config"
)

// changed is cfg with the setting at path set to another value of its type.
func changed(t *testing.T, cfg config.Config, path string) config.Config {
	t.Helper()
	var tree map[string]any
	_ = json.Unmarshal([]byte(mustJSON(t, cfg)), &tree)
	m, key := tree, path // a top-level setting (mcpServers)
	for {
		section, k, ok := strings.Cut(key, ".")
		if !ok {
			break
		}
		m, key = m[section].(map[string]any), k
	}
	switch v := m[key].(type) {
	case string:
		m[key] = v + "x"
	case float64:
		m[key] = v + 1
	case bool:
		m[key] = !v
	case []any:
		m[key] = append(v, "x")
	case map[string]any: // the MCP servers: one more (nothing listens there)
		v["x"] = map[string]any{"url": "http://127.0.0.1:9/mcp"}
	default:
		t.Fatalf("%s: a %T", path, v)
	}
	var out config.Config
	if err := json.Unmarshal([]byte(mustJSON(t, tree)), &out); err != nil {
		t.Fatal(err)
	}
	return out
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// Every setting has an owner, and the owner applies a change to it the way its tag
// (which the settings view and the README show) says: a hot setting at once, a
// restart one after a restart.
func TestSettingsAreCommittedAsTagged(t *testing.T) {
	a := startApp(t, testOptions(t, t.TempDir(), nil))
	t.Cleanup(func() { a.Stop() })
	if left := a.settings.Committer().Unowned(); len(left) > 0 {
		t.Fatalf("settings without an owner: %v", left)
	}
	from := a.settings.Live()
	for _, f := range config.Fields() {
		to := changed(t, from, f.Path)
		changes, waiting := a.settings.Committer().Commit(from, to)
		if len(changes) != 1 || changes[0].Path != f.Path {
			t.Fatalf("%s: changes %+v", f.Path, changes)
		}
		if live := len(waiting) == 0; live != (f.Apply == config.Hot) {
			t.Errorf("%s is tagged %s, but its owner applied it live=%v", f.Path, f.Apply, live)
		}
	}
}
