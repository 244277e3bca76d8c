package config

import (
	"slices"
	"strings"

	"github.com/wispapp/wisp/internal/jsonlist"
)

// Public is c as the API shows it: every setting but the secrets, whose keys are
// left out (so a client that sends the object back cannot overwrite them), as is a
// section that held only secrets.
func Public(c Config) (map[string]any, error) {
	m, err := toMap(c)
	if err != nil {
		return nil, err
	}
	for _, f := range fields {
		if f.Secret {
			dropPath(m, f.Path)
		}
	}
	m["mcpServers"] = publicMCP(c.MCPServers)
	return m, nil
}

// dropPath deletes the key at a dotted path, and every section it leaves empty.
func dropPath(m map[string]any, path string) {
	section, rest, nested := strings.Cut(path, ".")
	if !nested {
		delete(m, section)
		return
	}
	if sub, ok := m[section].(map[string]any); ok {
		dropPath(sub, rest)
		if len(sub) == 0 {
			delete(m, section)
		}
	}
}

// publicMCP shows each MCP server without its env and header values (secrets: a
// server's API key is usually one of them), only their names.
func publicMCP(servers map[string]MCPServer) map[string]any {
	out := make(map[string]any, len(servers))
	for name, s := range servers {
		out[name] = map[string]any{
			"command": s.Command, "args": jsonlist.NonNil(s.Args), "cwd": s.Cwd, "url": s.URL, "disabled": s.Disabled,
			"envKeys": sortedKeys(s.Env), "headerKeys": sortedKeys(s.Headers),
		}
	}
	return out
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// SecretsSet says for each secret setting whether it has a value.
func SecretsSet(c Config) map[string]bool {
	out := map[string]bool{}
	for _, f := range fields {
		if f.Secret {
			out[f.Path] = f.value(&c).String() != ""
		}
	}
	return out
}
