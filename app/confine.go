package app

import (
	"github.com/wispapp/wisp/app/config"
	"github.com/wispapp/wisp/app/wire"
	"github.com/wispapp/wisp/confine"
	"github.com/wispapp/wisp/mcp"
)

// newConfiner looks at what confinement the kernel offers; nothing is built until
// the services listen (setConfinement). See docs/confinement.md.
func (a *App) newConfiner() {
	a.confiner = confine.New(confine.Options{Mode: a.opts.Confine, Logger: a.log.With("component", "confine")})
}

// secretEnv is the one list of variables no process Wisp starts inherits: not the
// agent's commands, not the user's own Terminal-panel runs, not the MCP servers.
func secretEnv() []string { return config.SecretEnvVars() }

// setConfinement says what the agent's processes may not reach, for the services
// listening on port: the state folder (the API token, the database and its grants,
// the emotes), the config file, and the port. The network rules are built in the
// background when something will soon need them: shell access is on, or an MCP
// server runs a program.
func (a *App) setConfinement(cfg config.Config, port int) {
	a.confiner.Set(confine.Policy{Deny: a.deniedPaths(), Ports: []int{port}})
	if cfg.Features.ShellEnabled || hasStdioServer(cfg) {
		a.confiner.Prepare()
	}
}

// deniedPaths are what no hand of the agent reaches: the state folder and the config
// file (its processes through Landlock, its file actions by their own checks).
func (a *App) deniedPaths() []string { return []string{a.stateDir, a.settings.Path()} }

func hasStdioServer(cfg config.Config) bool {
	for _, s := range cfg.MCPServers {
		if specOf(s).Transport() == mcp.Stdio && !s.Disabled {
			return true
		}
	}
	return false
}

// confinement is how far the agent's commands and MCP servers are confined now:
// "full", "partial" or "none", and why, in words for the user. The approval gate
// switches standing grants off unless it is "full".
func (a *App) confinement() (level wire.Confinement, reason string) {
	l, r := a.confiner.Status()
	return wire.Confinement(l), r
}

// reconfineMCP restarts the MCP servers that run a program after the port moved:
// they were confined against the port Wisp left.
func (a *App) reconfineMCP() {
	for _, st := range a.core.mcp.Servers() {
		if st.Spec.Transport() == mcp.Stdio && !st.Spec.Disabled {
			if _, err := a.core.mcp.Restart(st.Name); err != nil {
				a.log.Debug("restart MCP server for the new port", "server", st.Name, "err", err)
			}
		}
	}
}
