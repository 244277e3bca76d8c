package app

import (
	"log/slog"

	"github.com/wispapp/wisp/loginpath"
)

// LoginPATH starts reading the user's login shell's PATH in the background (once
// for the process, bounded in time, with Wisp's secrets kept out of the shell's
// environment) and returns the getter for Options.LoginPATH. main calls it first
// thing, so the answer is usually in before the first MCP server or run needs it.
func LoginPATH(log *slog.Logger) func() loginpath.Result {
	loginpath.Start(loginpath.Options{Strip: secretEnv(), Logger: log.With("component", "loginpath")})
	return loginpath.Get
}

// mcpPATH is the PATH of the MCP servers' programs and whence it came; nil keeps
// Wisp's own.
func (a *App) mcpPATH() func() (path, from string) {
	get := a.opts.LoginPATH
	if get == nil {
		return nil
	}
	return func() (string, string) {
		r := get()
		return r.PATH, r.From
	}
}

// terminalPATH is the PATH of the terminal's runs, the agent's and the user's; nil
// keeps Wisp's own.
func (a *App) terminalPATH() func() string {
	get := a.opts.LoginPATH
	if get == nil {
		return nil
	}
	return func() string { return get().PATH }
}
