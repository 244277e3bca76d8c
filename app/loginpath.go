package app

import (
	"log/slog"

	"github.com/wispapp/wisp/loginpath"
)

// LoginPATH is the getter main gives Options.LoginPATH: the user's login shell's
// PATH, read once for the process (bounded in time, with Wisp's secrets kept out of
// the shell's environment) from its first call on; New makes that call.
func LoginPATH(log *slog.Logger) func() loginpath.Result {
	o := loginpath.Options{Strip: secretEnv(), Logger: log.With("component", "loginpath")}
	return func() loginpath.Result {
		loginpath.Start(o)
		return loginpath.Get()
	}
}

// startLoginPATH starts reading the login shell's PATH in the background, so that
// the answer is usually in before the first MCP server or terminal run needs it.
// Wisp's start never waits for it.
func (a *App) startLoginPATH() {
	if get := a.opts.LoginPATH; get != nil {
		go get() // returns within the resolution's bound
	}
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
