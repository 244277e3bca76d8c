package config

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
)

// Getenv looks up an environment variable; os.Getenv in production, a map in tests.
type Getenv func(string) string

// envVars are the environment variables that override settings, in the order they
// apply (the provider first: it decides which API key variable counts).
var envVars = []struct{ name, path string }{
	{"WISP_PORT", "server.port"},
	{"WISP_API_TOKEN", "api.token"},
	{"WISP_TERMINAL_RUN_TOKEN", "api.terminalToken"},
	{"WISP_PROVIDER", "model.provider"},
	{"WISP_BASE_URL", "model.baseURL"},
	{"WISP_MODEL", "model.name"},
	{"OPENAI_API_KEY", "model.apiKey"},
	{"ANTHROPIC_API_KEY", "model.apiKey"},
	{"WISP_TERMINAL_MAX_CONCURRENT", "terminal.maxConcurrent"},
	{"WISP_TERMINAL_MAX_DURATION_MS", "terminal.maxDurationMs"},
}

// SecretEnvVars are the environment variables that hold Wisp's secrets (its tokens,
// the model's API keys): what no program Wisp starts for someone else inherits.
func SecretEnvVars() []string {
	var out []string
	for _, v := range envVars {
		if f, ok := FieldAt(v.path); ok && f.Secret {
			out = append(out, v.name)
		}
	}
	return out
}

// keyVarApplies says whether an API key variable belongs to the provider: each
// provider reads its own, and no key variable reaches Ollama.
func keyVarApplies(name, provider string) bool {
	switch provider {
	case "anthropic":
		return name == "ANTHROPIC_API_KEY"
	case "openai", "":
		return name == "OPENAI_API_KEY"
	}
	return false
}

// WithEnv returns c with the environment's overrides applied. The result is what the
// running process uses; it is never written back to the file.
func (c Config) WithEnv(getenv Getenv) (Config, error) {
	var errs []error
	for _, v := range envVars {
		val := getenv(v.name)
		if val == "" || (v.path == "model.apiKey" && !keyVarApplies(v.name, c.Model.Provider)) {
			continue
		}
		f, _ := FieldAt(v.path)
		dst := f.value(&c)
		if dst.Kind() == reflect.String {
			dst.SetString(val)
			continue
		}
		n, err := strconv.Atoi(val)
		if err != nil {
			errs = append(errs, fmt.Errorf("%s must be a whole number, got %q", v.name, val))
			continue
		}
		dst.SetInt(int64(n))
	}
	if err := errors.Join(errs...); err != nil {
		return c, err
	}
	return c, c.Validate()
}

// EnvOverrides names, by setting path, the environment variable that overrides it
// for a process running the file's config c.
func EnvOverrides(c Config, getenv Getenv) map[string]string {
	out := map[string]string{}
	provider := c.Model.Provider
	if p := getenv("WISP_PROVIDER"); p != "" {
		provider = p
	}
	for _, v := range envVars {
		if getenv(v.name) != "" && (v.path != "model.apiKey" || keyVarApplies(v.name, provider)) {
			out[v.path] = v.name
		}
	}
	return out
}

// StateDir is where Wisp keeps its config and database: $WISP_STATE_DIR, else
// $XDG_STATE_HOME/wisp, else ~/.local/state/wisp.
func StateDir(getenv Getenv) (string, error) {
	if d := getenv("WISP_STATE_DIR"); d != "" {
		return d, nil
	}
	if d := getenv("XDG_STATE_HOME"); d != "" {
		return filepath.Join(d, "wisp"), nil
	}
	home := getenv("HOME")
	if home == "" {
		h, err := os.UserHomeDir()
		if err != nil {
			return "", fmt.Errorf("find the state folder: set WISP_STATE_DIR: %w", err)
		}
		home = h
	}
	return filepath.Join(home, ".local", "state", "wisp"), nil
}

// Path is the config file: $WISP_CONFIG_PATH, else <state>/wisp.json.
func Path(getenv Getenv, stateDir string) string {
	if p := getenv("WISP_CONFIG_PATH"); p != "" {
		return p
	}
	return filepath.Join(stateDir, "wisp.json")
}
