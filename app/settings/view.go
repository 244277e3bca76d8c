package settings

import (
	"github.com/wispapp/wisp/app/config"
	"github.com/wispapp/wisp/app/wire"
)

// The settings as the API shows them. They live here, with the one who makes them,
// so that the settings need nothing of the HTTP layer.

// ConfigView is GET /api/config: the file's settings without the secrets' values.
type ConfigView struct {
	Path                  string            `json:"path"`
	Config                map[string]any    `json:"config"`
	Secrets               map[string]bool   `json:"secrets"`     // whether each secret is set
	SecretStore           wire.SecretStore  `json:"secretStore"` // where the secrets are kept, and why
	Fields                []config.Field    `json:"fields"`
	Overrides             map[string]string `json:"overrides"` // setting → environment variable or flag
	ConfigError           string            `json:"configError"`
	PendingRestart        bool              `json:"pendingRestart"`
	PendingRestartReasons []string          `json:"pendingRestartReasons"`
}

// ShellView is the answer to PUT /api/permissions/shell.
type ShellView struct {
	Enabled               bool     `json:"enabled"`
	PendingRestart        bool     `json:"pendingRestart"`
	PendingRestartReasons []string `json:"pendingRestartReasons"`
}
