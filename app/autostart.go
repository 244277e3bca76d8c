package app

import (
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"sync"

	"github.com/wispapp/wisp/app/config"
	"github.com/wispapp/wisp/app/settings"
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

// autostarter is the user's entry for this Wisp, and the owner of
// desktop.openAtLogin.
type autostarter struct {
	getenv   config.Getenv
	desktop  bool   // the window opens at login, not `wisp serve`
	stateDir string // passed on when chosen (--state-dir or WISP_STATE_DIR), else ""
	log      *slog.Logger
}

var (
	_ settings.Autostart = autostarter{}
	_ config.Consumer    = autostarter{}
)

// autostart is this Wisp's entry.
func (a *App) autostart() autostarter {
	at := autostarter{getenv: a.opts.Getenv, desktop: a.opts.Desktop, log: a.log}
	if a.opts.StateDir != "" || a.opts.Getenv("WISP_STATE_DIR") != "" {
		at.stateDir = a.stateDir
	}
	return at
}

// entry is the user's entry, found from Wisp's environment.
func (at autostarter) entry() (autostart.Entry, error) {
	return autostart.Locate(at.getenv)
}

// autostartCommand is how the entry starts this Wisp: the running binary's real
// path, `serve` when Wisp runs headless, and the state folder when one was chosen
// (--state-dir or WISP_STATE_DIR), so the Wisp that opens at login is this one.
func (at autostarter) command() ([]string, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("find Wisp's binary: %w", err)
	}
	if real, err := filepath.EvalSymlinks(exe); err == nil {
		exe = real
	}
	cmd := []string{exe}
	if !at.desktop {
		cmd = append(cmd, "serve")
	}
	if at.stateDir != "" {
		dir, err := filepath.Abs(at.stateDir)
		if err != nil {
			return nil, fmt.Errorf("the state folder: %w", err)
		}
		cmd = append(cmd, "--state-dir", dir)
	}
	return cmd, nil
}

// Set makes the entry say on: written to start this Wisp, or removed.
func (at autostarter) Set(on bool) error {
	autostartMu.Lock()
	defer autostartMu.Unlock()
	e, err := at.entry()
	if err != nil {
		return err
	}
	if !on {
		return e.Disable()
	}
	cmd, err := at.command()
	if err != nil {
		return err
	}
	return e.Enable(cmd)
}

// On reports whether the entry is in effect now; an entry that cannot be found or
// read is not.
func (at autostarter) On() bool {
	e, err := at.entry()
	if err != nil {
		return false
	}
	on, err := e.Enabled()
	if err != nil {
		at.log.Warn("read the autostart entry", "path", e.Path, "err", err)
	}
	return on && err == nil
}

// VerifyConfig refuses to switch the setting on where no entry can be written: no
// autostart folder in the environment, or no path to Wisp's binary.
func (at autostarter) VerifyConfig(_, to config.Config) error {
	if !to.Desktop.OpenAtLogin {
		return nil
	}
	if _, err := at.entry(); err != nil {
		return fault.Invalid.Errorf("open at login: %v", err)
	}
	if _, err := at.command(); err != nil {
		return fault.Invalid.Errorf("open at login: %v", err)
	}
	return nil
}

// CommitConfig writes or removes the entry. A failure is logged: the settings view
// shows the entry as it is, and the API's change reports it (settings.PatchConfig).
func (at autostarter) CommitConfig(_, to config.Config) bool {
	if err := at.Set(to.Desktop.OpenAtLogin); err != nil {
		at.log.Warn("open at login: the autostart entry could not be changed", "on", to.Desktop.OpenAtLogin, "err", err)
	} else {
		at.log.Info("open at login", "on", to.Desktop.OpenAtLogin)
	}
	return true
}
