package app

import (
	"context"
	"errors"
	"io/fs"
	"slices"
	"sync"

	"github.com/wispapp/wisp/internal/fault"

	"github.com/wispapp/wisp/app/config"
	"github.com/wispapp/wisp/app/wire"
)

// configState is the config as Wisp runs it.
type configState struct {
	apply     sync.Mutex       // orders whole applies (the watcher's and the API's)
	consumers config.Committer // the owners of the settings; registered before Start

	mu      sync.Mutex
	file    *config.File    // the last good file
	live    config.Config   // that file's effective settings; what could be applied is in force
	waiting map[string]bool // settings whose owner could not apply a change while Wisp runs
	reasons config.Reasons  // the waiting settings that differ from what the services run
	err     string          // why the file on disk cannot be used; "" when it can
}

// liveConfig is the effective config of the last good file.
func (a *App) liveConfig() config.Config {
	a.conf.mu.Lock()
	defer a.conf.mu.Unlock()
	return a.conf.live
}

// pending returns the restart reasons and the config file's error.
func (a *App) pending() ([]string, string) {
	a.conf.mu.Lock()
	defer a.conf.mu.Unlock()
	return a.conf.reasons.List(), a.conf.err
}

// syncReasonsLocked makes the reasons say which waiting settings differ between what
// the services run and the live config, and reports whether they changed. A setting
// changed back (or applied by a restart) stops waiting and loses its reason.
func (c *configState) syncReasonsLocked(running config.Config) bool {
	changed := false
	differs := map[string]bool{}
	for _, ch := range config.Diff(running, c.live) {
		if c.waiting[ch.Path] {
			differs[ch.Path] = true
			changed = c.reasons.Set(ch.Path, ch.Reason()) || changed
		}
	}
	for path := range c.waiting {
		if !differs[path] {
			delete(c.waiting, path)
			changed = c.reasons.Delete(path) || changed
		}
	}
	return changed
}

// reloadConfig takes the file as read by the watcher.
func (a *App) reloadConfig(f *config.File, err error) {
	if err == nil {
		err = a.applyFile(f)
	}
	if err != nil {
		a.configRejected(err)
		return
	}
	a.tidySecrets()
}

// applyFile makes f the running config in two phases: the owner of every changed
// setting verifies the change (a refusal rejects the file), then commits it; what an
// owner cannot apply while Wisp runs becomes a restart reason. An unchanged file
// changes nothing and says nothing.
func (a *App) applyFile(f *config.File) error {
	eff, err := a.effective(a.kept.fill(f))
	if err != nil {
		return err
	}
	a.conf.apply.Lock()
	defer a.conf.apply.Unlock()
	from := a.liveConfig()
	if err := a.conf.consumers.Verify(from, eff); err != nil {
		return err
	}
	a.conf.mu.Lock()
	hadErr := a.conf.err != ""
	a.conf.file, a.conf.live, a.conf.err = f, eff, "" // owners that read the live config see it
	a.conf.mu.Unlock()
	changes, waiting := a.conf.consumers.Commit(from, eff)
	a.conf.mu.Lock()
	for _, c := range waiting {
		a.conf.waiting[c.Path] = true
	}
	reasonsChanged := a.conf.syncReasonsLocked(a.svc.Load().cfg)
	reasons := a.conf.reasons.List()
	a.conf.mu.Unlock()
	if len(changes) == 0 && !hadErr && !reasonsChanged {
		return nil
	}
	paths := make([]string, 0, len(changes))
	for _, c := range changes {
		paths = append(paths, c.Path)
		a.log.Info("setting changed", "setting", c.Path, "live", !slices.ContainsFunc(waiting, func(w config.Change) bool { return w.Path == c.Path }))
	}
	if hadErr {
		a.log.Info("config file is valid again", "config", a.configPath)
	}
	if reasonsChanged && len(reasons) > 0 {
		a.events.Publish(wire.NewRestartRequired(reasons))
	}
	if len(paths) > 0 {
		a.events.Publish(wire.NewConfigChanged(paths))
	}
	a.broadcastStatus()
	return nil
}

// configRejected keeps the last good config and tells everyone why the file is not used.
func (a *App) configRejected(err error) {
	msg := err.Error()
	a.conf.mu.Lock()
	a.conf.err = msg
	a.conf.mu.Unlock()
	a.log.Warn("config file rejected; keeping the last good settings", "err", msg)
	a.events.Publish(wire.NewConfigError(msg))
	a.broadcastStatus()
}

// broadcastStatus sends every client the full status (with the restart fields) now.
func (a *App) broadcastStatus() { a.events.Publish(a.statusFrame(true)) }

// verify asks the owners of the settings that differ between the live config and to
// whether they could take the change. A refusal is the caller's to fix (400).
func (a *App) verify(to config.Config) error {
	a.conf.apply.Lock()
	defer a.conf.apply.Unlock()
	if err := a.conf.consumers.Verify(a.liveConfig(), to); err != nil {
		if fault.KindOf(err) == fault.Internal {
			return fault.Invalid.Errorf("%v", err)
		}
		return err
	}
	return nil
}

// changeConfig edits the config file as it is on disk, saves it atomically and applies
// it at once through the same applyFile as a hand edit (the watcher then finds
// nothing new). A file that is broken on disk is not overwritten. The change sees
// every secret's value, wherever it is kept; once verified, the secrets go where
// they belong (keptSecrets.store) before the file is saved.
func (a *App) changeConfig(change func(*config.File) error) error {
	a.fileMu.Lock()
	defer a.fileMu.Unlock()
	f, err := config.Read(a.configPath)
	if errors.Is(err, fs.ErrNotExist) {
		a.conf.mu.Lock()
		f = a.conf.file.Clone()
		a.conf.mu.Unlock()
	} else if err != nil {
		return fault.Conflict.Errorf("fix the config file first (your hand edit is kept): %v", err)
	}
	before := a.kept.fill(f)
	f.Config = before
	if err := change(f); err != nil {
		if fault.KindOf(err) != fault.Internal {
			return err // the change said what it is (a server that is not there)
		}
		return fault.Invalid.Errorf("%v", err)
	}
	eff, err := a.effective(f.Config)
	if err != nil {
		return fault.Invalid.Errorf("%v", err)
	}
	if err := a.verify(eff); err != nil {
		return err // nothing is saved: the file on disk stays one Wisp can use
	}
	a.kept.store(context.Background(), f, before)
	if err := f.Save(); err != nil {
		return err
	}
	return a.applyFile(f)
}
