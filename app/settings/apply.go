package settings

import (
	"context"
	"errors"
	"io/fs"
	"slices"
	"strings"

	"github.com/wispapp/wisp/app/config"
	"github.com/wispapp/wisp/app/wire"
	"github.com/wispapp/wisp/internal/fault"
)

// Reload reads the file again and applies it (or says why it cannot be used): the
// watcher calls it when the file changed. The file is read in the queue's turn, not
// before: a read made before a change the API saved, applied after it, would bring
// back what that change replaced.
func (s *Settings) Reload() {
	_ = s.do(func() error {
		f, err := config.Read(s.opts.Path)
		if err == nil {
			err = s.apply(f)
		}
		if err != nil {
			s.reject(err)
			return nil
		}
		s.tidySecrets()
		return nil
	})
}

// Change edits the config file as it is on disk, saves it atomically and applies it
// at once as a hand edit would be (the watcher then finds nothing new). A file that
// is broken on disk is not overwritten. The change sees every secret's value,
// wherever it is kept; once verified, the secrets go where they belong
// (keptSecrets.store) before the file is saved.
func (s *Settings) Change(ctx context.Context, change func(*config.File) error) error {
	return s.do(func() error { return s.changeFile(ctx, change) })
}

func (s *Settings) changeFile(ctx context.Context, change func(*config.File) error) error {
	f, err := config.Read(s.opts.Path)
	if errors.Is(err, fs.ErrNotExist) {
		f = s.snap.Load().file.Clone()
	} else if err != nil {
		return fault.Conflict.Errorf("fix the config file first (your hand edit is kept): %v", err)
	}
	before := s.kept.fill(f)
	f.Config = before
	if err := change(f); err != nil {
		if fault.KindOf(err) != fault.Internal {
			return err // the change said what it is (a server that is not there)
		}
		return fault.Invalid.Errorf("%v", err)
	}
	eff, err := s.effective(f.Config)
	if err != nil {
		return fault.Invalid.Errorf("%v", err)
	}
	if err := s.committer.Verify(s.Live(), eff); err != nil {
		if fault.KindOf(err) == fault.Internal {
			return fault.Invalid.Errorf("%v", err)
		}
		return err // nothing is saved: the file on disk stays one Wisp can use
	}
	s.kept.store(context.WithoutCancel(ctx), f, before)
	if err := f.Save(); err != nil {
		return err
	}
	return s.apply(f)
}

// Restart runs restart, which rebuilds the services from live, with no change of the
// settings landing half way. Once it succeeds, live is what the services run: the
// restart reasons it settled are dropped. restart must not change the settings.
func (s *Settings) Restart(restart func(live config.Config) error) error {
	return s.do(func() error {
		live := s.Live()
		if err := restart(live); err != nil {
			return err
		}
		s.running = live
		s.syncReasons()
		return nil
	})
}

// apply makes f the running config in two phases: the owner of every changed
// setting verifies the change (a refusal rejects the file), then commits it; what an
// owner cannot apply while Wisp runs becomes a restart reason. An unchanged file
// changes nothing and says nothing.
func (s *Settings) apply(f *config.File) error {
	eff, err := s.effective(s.kept.fill(f))
	if err != nil {
		return err
	}
	old := s.snap.Load()
	from := old.live
	if err := s.committer.Verify(from, eff); err != nil {
		return err
	}
	hadErr := old.err != ""
	// Owners that read the live config see it.
	s.snap.Store(&snapshot{file: f, live: eff, reasons: old.reasons})
	changes, waiting := s.committer.Commit(from, eff)
	for _, c := range waiting {
		s.waiting[c.Path] = true
	}
	reasonsChanged := s.syncReasons()
	if len(changes) == 0 && !hadErr && !reasonsChanged {
		return nil
	}
	paths := make([]string, 0, len(changes))
	for _, c := range changes {
		paths = append(paths, c.Path)
		s.log.Info("setting changed", "setting", c.Path, "live", !slices.ContainsFunc(waiting, func(w config.Change) bool { return w.Path == c.Path }))
	}
	if hadErr {
		s.log.Info("config file is valid again", "config", s.opts.Path)
	}
	if reasons, _ := s.Pending(); reasonsChanged && len(reasons) > 0 {
		s.opts.Events.Publish(wire.NewRestartRequired(reasons))
	}
	if len(paths) > 0 {
		s.opts.Events.Publish(wire.NewConfigChanged(paths))
	}
	s.broadcastStatus()
	return nil
}

// syncReasons makes the reasons say which waiting settings differ between what the
// services run and the live config, and reports whether they changed. A setting
// changed back (or applied by a restart) stops waiting and loses its reason.
func (s *Settings) syncReasons() bool {
	changed := false
	old := s.snap.Load()
	differs := map[string]bool{}
	for _, ch := range config.Diff(s.running, old.live) {
		if s.waiting[ch.Path] {
			differs[ch.Path] = true
			changed = s.reasons.Set(ch.Path, ch.Reason()) || changed
		}
	}
	for path := range s.waiting {
		if !differs[path] {
			delete(s.waiting, path)
			changed = s.reasons.Delete(path) || changed
		}
	}
	if changed {
		next := *old
		next.reasons = s.reasons.List()
		s.snap.Store(&next)
	}
	return changed
}

// reject keeps the last good config and tells everyone why the file is not used.
func (s *Settings) reject(err error) {
	msg := err.Error()
	next := *s.snap.Load()
	next.err = msg
	s.snap.Store(&next)
	s.log.Warn("config file rejected; keeping the last good settings", "err", msg)
	s.opts.Events.Publish(wire.NewConfigError(msg))
	s.broadcastStatus()
}

// broadcastStatus sends every client the full status (with the restart fields) now.
func (s *Settings) broadcastStatus() {
	if s.opts.Status != nil {
		s.opts.Events.Publish(s.opts.Status())
	}
}

// tidySecrets moves the secrets found in the config file (an older Wisp's, or a hand
// edit's) into the keyring, and has the keyring forget those the file no longer
// lists; it runs after a file is applied, at start and on every reload. The file is
// written only when a secret left it: the watcher then finds the same settings, so
// nothing changes, no restart reason appears, and there is nothing left to move.
func (s *Settings) tidySecrets() {
	if !s.kept.untidy(s.snap.Load().file) {
		return
	}
	f, err := config.Read(s.opts.Path)
	if err != nil {
		return // the watcher reports it
	}
	if !s.kept.store(context.Background(), f, f.Config) {
		return
	}
	if err := f.Save(); err != nil {
		s.log.Warn("move secrets to the keyring", "err", err)
		return
	}
	s.log.Info("secrets moved from the config file to the keyring", "kept", strings.Join(f.Kept(), ","))
	if err := s.apply(f); err != nil {
		s.reject(err)
	}
}
