package emotes

import (
	"context"
	"errors"
	"os"
	"path/filepath"

	"github.com/fsnotify/fsnotify"

	"github.com/wispapp/wisp/internal/fswatch"
)

// Start creates the user folder if it is missing and reloads the catalog whenever its
// contents change (files added, replaced or removed, settled by the debounce), until
// Stop. Options.OnChange runs after a reload that changed the catalog.
//
// While the folder is gone (removed or renamed away), its parent is watched until the
// folder is made again; only then, so the busy state folder (the database's writes)
// does not wake the watcher otherwise.
func (c *Catalog) Start(context.Context) error {
	if c.opts.Dir == "" {
		return errors.New("emotes: no user folder to watch")
	}
	if err := os.MkdirAll(c.opts.Dir, 0o700); err != nil {
		return err
	}
	w, err := fswatch.New(fswatch.Options{
		Debounce: c.opts.Debounce,
		Relevant: c.followFolder,
		OnChange: func() {
			if c.Reload() && c.opts.OnChange != nil {
				c.opts.OnChange()
			}
		},
		OnError: func(err error) { c.log.Warn("emote folder watch", "err", err, "folder", c.opts.Dir) },
	})
	if err != nil {
		return err
	}
	if err := w.Add(c.opts.Dir); err != nil {
		w.Close()
		return err
	}
	c.mu.Lock()
	c.watch = w
	c.mu.Unlock()
	c.Reload() // whatever arrived before the watch began
	return nil
}

// followFolder keeps the watch on the folder itself across its removal and return, and
// reports whether the event may change the catalog.
func (c *Catalog) followFolder(w *fswatch.Watcher, ev fsnotify.Event) bool {
	parent := filepath.Dir(c.opts.Dir)
	switch {
	case ev.Name == c.opts.Dir && ev.Has(fsnotify.Create): // made again: follow it, not the parent
		_ = w.Add(c.opts.Dir)
		_ = w.Remove(parent)
	case ev.Name == c.opts.Dir && (ev.Has(fsnotify.Remove) || ev.Has(fsnotify.Rename)):
		if err := w.Add(parent); err != nil {
			c.log.Warn("emote folder gone and its parent cannot be watched", "err", err, "folder", c.opts.Dir)
		}
		if _, err := os.Lstat(c.opts.Dir); err == nil { // made again before the parent watch began
			_ = w.Add(c.opts.Dir)
			_ = w.Remove(parent)
		}
	case filepath.Dir(ev.Name) != c.opts.Dir:
		return false // a sibling in the state folder
	}
	return true
}

// Stop stops watching and waits for a reload under way. The catalog stays usable.
func (c *Catalog) Stop() {
	c.mu.Lock()
	w := c.watch
	c.watch = nil
	c.mu.Unlock()
	if w != nil {
		_ = w.Close()
	}
}
