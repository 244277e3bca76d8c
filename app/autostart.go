package app

import (
	"fmt"
	"os"
	"path/filepath"
	"sync"

	"github.com/wispapp/wisp/app/config"
	"github.com/wispapp/wisp/autostart"
	"github.com/wispapp/wisp/internal/fault"
)

// "Open Wisp when I log in" (desktop.openAtLogin). Its owner writes or removes the
// user's XDG autostart entry when the setting changes; a change through the API
// makes the entry match the setting even when the file already said so. The entry
// on disk is the truth the settings view shows: one deleted by hand (or turned off
// by the desktop's own start-up settings) shows as off, and Wisp never writes it
// back on its own; switching the setting on again does.

// autostartMu orders the changes to the entry, which is one per user, not per App.
var autostartMu sync.Mutex

// autostartEntry is the user's entry, found from Wisp's environment.
func (a *App) autostartEntry() (autostart.Entry, error) {
	return autostart.Locate(a.opts.Getenv)
}

// autostartCommand is how the entry starts this Wisp: the running binary's real
// path, `serve` when Wisp runs headless, and the state folder when one was chosen
// (--state-dir or WISP_STATE_DIR), so the Wisp that opens at login is this one.
func (a *App) autostartCommand() ([]string, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("find Wisp's binary: %w", err)
	}
	if real, err := filepath.EvalSymlinks(exe); err == nil {
		exe = real
	}
	cmd := []string{exe}
	if !a.opts.Desktop {
		cmd = append(cmd, "serve")
	}
	if a.opts.StateDir != "" || a.opts.Getenv("WISP_STATE_DIR") != "" {
		dir, err := filepath.Abs(a.stateDir)
		if err != nil {
			return nil, fmt.Errorf("the state folder: %w", err)
		}
		cmd = append(cmd, "--state-dir", dir)
	}
	return cmd, nil
}

// setAutostart makes the entry say on: written to start this Wisp, or removed.
func (a *App) setAutostart(on bool) error {
	autostartMu.Lock()
	defer autostartMu.Unlock()
	e, err := a.autostartEntry()
	if err != nil {
		return err
	}
	if !on {
		return e.Disable()
	}
	cmd, err := a.autostartCommand()
	if err != nil {
		return err
	}
	return e.Enable(cmd)
}

// autostartOn reports whether the entry is in effect now; an entry that cannot be
// found or read is not.
func (a *App) autostartOn() bool {
	e, err := a.autostartEntry()
	if err != nil {
		return false
	}
	on, err := e.Enabled()
	if err != nil {
		a.log.Warn("read the autostart entry", "path", e.Path, "err", err)
	}
	return on && err == nil
}

// showAutostart puts the entry's state in place of the file's desktop.openAtLogin
// in the settings the API shows.
func (a *App) showAutostart(public map[string]any) {
	if d, ok := public["desktop"].(map[string]any); ok {
		d["openAtLogin"] = a.autostartOn()
	}
}

// syncAutostartAfterPatch makes the entry match the saved setting when patch named
// it: switching it on again after the entry was deleted by hand writes the entry,
// though the file already said on.
func (a *App) syncAutostartAfterPatch(patch map[string]any) error {
	section, named := patch["desktop"]
	if d, ok := section.(map[string]any); ok {
		_, named = d["openAtLogin"]
	}
	if !named {
		return nil
	}
	a.conf.mu.Lock()
	on := a.conf.file.Config.Desktop.OpenAtLogin
	a.conf.mu.Unlock()
	if err := a.setAutostart(on); err != nil {
		return fault.Unavailable.Errorf("the setting is saved, but the autostart entry could not be changed: %v", err)
	}
	return nil
}

// autostartOwner owns desktop.openAtLogin.
type autostartOwner struct{ a *App }

// VerifyConfig refuses to switch the setting on where no entry can be written: no
// autostart folder in the environment, or no path to Wisp's binary.
func (o autostartOwner) VerifyConfig(_, to config.Config) error {
	if !to.Desktop.OpenAtLogin {
		return nil
	}
	if _, err := o.a.autostartEntry(); err != nil {
		return fault.Invalid.Errorf("open at login: %v", err)
	}
	if _, err := o.a.autostartCommand(); err != nil {
		return fault.Invalid.Errorf("open at login: %v", err)
	}
	return nil
}

// CommitConfig writes or removes the entry. A failure is logged: the settings view
// shows the entry as it is, and the API's change reports it (syncAutostartAfterPatch).
func (o autostartOwner) CommitConfig(_, to config.Config) bool {
	if err := o.a.setAutostart(to.Desktop.OpenAtLogin); err != nil {
		o.a.log.Warn("open at login: the autostart entry could not be changed", "on", to.Desktop.OpenAtLogin, "err", err)
	} else {
		o.a.log.Info("open at login", "on", to.Desktop.OpenAtLogin)
	}
	return true
}
