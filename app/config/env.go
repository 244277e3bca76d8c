package config

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
)

// Getenv looks up an environment variable; os.Getenv in production, a map in tests.
type Getenv func(string) string

// WithEnv returns c with the environment's overrides applied. The result is what the
// running process uses; it is never written back to the file.
func (c Config) WithEnv(getenv Getenv) (Config, error) {
	var errs []error
	str := func(key string, dst *string) {
		if v := getenv(key); v != "" {
			*dst = v
		}
	}
	num := func(key string, dst *int) {
		v := getenv(key)
		if v == "" {
			return
		}
		n, err := strconv.Atoi(v)
		if err != nil {
			errs = append(errs, fmt.Errorf("%s must be a whole number, got %q", key, v))
			return
		}
		*dst = n
	}
	num("WISP_PORT", &c.Server.Port)
	str("WISP_API_TOKEN", &c.API.Token)
	str("WISP_TERMINAL_RUN_TOKEN", &c.API.TerminalToken)
	str("WISP_PROVIDER", &c.Model.Provider)
	str("WISP_BASE_URL", &c.Model.BaseURL)
	str("WISP_MODEL", &c.Model.Name)
	switch c.Model.Provider {
	case "anthropic":
		str("ANTHROPIC_API_KEY", &c.Model.APIKey)
	case "openai", "":
		str("OPENAI_API_KEY", &c.Model.APIKey)
	}
	num("WISP_TERMINAL_MAX_CONCURRENT", &c.Terminal.MaxConcurrent)
	num("WISP_TERMINAL_MAX_DURATION_MS", &c.Terminal.MaxDurationMs)
	if err := errors.Join(errs...); err != nil {
		return c, err
	}
	return c, c.Validate()
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
