package emotes

import (
	"errors"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/fsnotify/fsnotify"
)

// watcher follows the user folder: fsnotify on the folder (files added, replaced,
// removed) and on its parent (the folder itself created, removed or renamed), settled
// by a debounce before the catalog is read again.
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
	if err := fw.Add(filepath.Dir(c.opts.Dir)); err != nil {
		fw.Close()
		return err
	}
	_ = fw.Add(c.opts.Dir) // a symlinked or vanished folder is reported by Reload
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
			if filepath.Dir(ev.Name) != c.opts.Dir && ev.Name != c.opts.Dir {
				continue // a sibling in the state folder
			}
			if ev.Name == c.opts.Dir && ev.Has(fsnotify.Create) {
				_ = w.fs.Add(c.opts.Dir) // the folder was (re)made: follow its contents again
			}
			timer.Reset(c.opts.Debounce)
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
