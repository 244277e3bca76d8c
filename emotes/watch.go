package emotes

import (
	"errors"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/fsnotify/fsnotify"
)

// watcher follows the user folder with fsnotify: files added, replaced or removed, settled
// by a debounce before the catalog is read again. While the folder is gone (removed or
// renamed away), its parent is watched until the folder is made again; only then, so the
// busy state folder (the database's writes) does not wake the watcher otherwise.
type watcher struct {
	fs   *fsnotify.Watcher
	done chan struct{}
	wg   sync.WaitGroup
}

// Watch creates the user folder if it is missing and reloads the catalog whenever its
// contents change, until Close. onChange (optional) runs after a reload that changed
// the catalog.
func (c *Catalog) Watch(onChange func()) error {
	if c.opts.Dir == "" {
		return errors.New("emotes: no user folder to watch")
	}
	if err := os.MkdirAll(c.opts.Dir, 0o700); err != nil {
		return err
	}
	fw, err := fsnotify.NewWatcher()
	if err != nil {
		return err
	}
	if err := fw.Add(c.opts.Dir); err != nil {
		fw.Close()
		return err
	}
	w := &watcher{fs: fw, done: make(chan struct{})}
	c.mu.Lock()
	c.watch = w
	c.mu.Unlock()
	c.Reload() // whatever arrived before the watch began
	w.wg.Add(1)
	go c.follow(w, onChange)
	return nil
}

func (c *Catalog) follow(w *watcher, onChange func()) {
	defer w.wg.Done()
	timer := time.NewTimer(time.Hour)
	timer.Stop()
	defer timer.Stop()
	for {
		select {
		case <-w.done:
			return
		case ev, ok := <-w.fs.Events:
			if !ok {
				return
			}
			if c.followFolder(w, ev) {
				timer.Reset(c.opts.Debounce)
			}
		case err, ok := <-w.fs.Errors:
			if !ok {
				return
			}
			c.log.Warn("emote folder watch", "err", err, "folder", c.opts.Dir)
			timer.Reset(c.opts.Debounce) // events may have been lost: read the folder again
		case <-timer.C:
			if c.Reload() && onChange != nil {
				onChange()
			}
		}
	}
}

// followFolder keeps the watch on the folder itself across its removal and return, and
// reports whether the event may change the catalog.
func (c *Catalog) followFolder(w *watcher, ev fsnotify.Event) bool {
	parent := filepath.Dir(c.opts.Dir)
	switch {
	case ev.Name == c.opts.Dir && ev.Has(fsnotify.Create): // made again: follow it, not the parent
		_ = w.fs.Add(c.opts.Dir)
		_ = w.fs.Remove(parent)
	case ev.Name == c.opts.Dir && (ev.Has(fsnotify.Remove) || ev.Has(fsnotify.Rename)):
		if err := w.fs.Add(parent); err != nil {
			c.log.Warn("emote folder gone and its parent cannot be watched", "err", err, "folder", c.opts.Dir)
		}
		if _, err := os.Lstat(c.opts.Dir); err == nil { // made again before the parent watch began
			_ = w.fs.Add(c.opts.Dir)
			_ = w.fs.Remove(parent)
		}
	case filepath.Dir(ev.Name) != c.opts.Dir:
		return false // a sibling in the state folder
	}
	return true
}

// Close stops watching. The catalog stays usable.
func (c *Catalog) Close() error {
	c.mu.Lock()
	w := c.watch
	c.watch = nil
	c.mu.Unlock()
	if w == nil {
		return nil
	}
	close(w.done)
	err := w.fs.Close()
	w.wg.Wait()
	return err
}
