package app

import (
	"github.com/wispapp/wisp/app/files"
)

// registerFiles builds the agent's file actions on the live files.roots, never
// reaching the state folder or the config file (the paths setConfinement denies
// the agent's processes), and offers them to the agent (docs/files.md). The
// service also undoes an edit (POST /api/edits/{id}/undo).
func (a *App) registerFiles(c *core) error {
	c.files = files.New(files.Options{
		Store: c.store, Approvals: c.approvals, Home: a.opts.Getenv("HOME"),
		Roots:  func() []string { return a.settings.Live().Files.Roots },
		Deny:   a.deniedPaths,
		Logger: a.log.With("component", "files"),
	})
	for _, act := range c.files.Actions() {
		if err := a.actions.Register(act); err != nil {
			return err
		}
	}
	return nil
}
