// Package fswatch follows folders with fsnotify and calls back once a burst of
// changes has settled. Its errors channel is always drained (fsnotify can deadlock
// when it is not) and an error counts as a change, since events may have been lost.
package fswatch

import (
	"sync"
	"time"

	"github.com/fsnotify/fsnotify"
)

// Options configure a Watcher.
type Options struct {
	// Debounce is how long the folder must stay quiet before OnChange runs.
	Debounce time.Duration
	// Relevant says whether an event may matter; nil means every event does. It runs on
	// the watcher's goroutine and may Add or Remove watched paths.
	Relevant func(w *Watcher, ev fsnotify.Event) bool
	// OnChange runs on the watcher's goroutine after a settled burst of relevant events.
	OnChange func()
	// OnError reports a watch error (optional).
	OnError func(error)
}

// Watcher is a debounced fsnotify watch.
type Watcher struct {
	opts Options
	fs   *fsnotify.Watcher
	done chan struct{}
	wg   sync.WaitGroup
	once sync.Once
}

// New starts a watcher with nothing watched yet; Add the folders to follow.
func New(opts Options) (*Watcher, error) {
	fw, err := fsnotify.NewWatcher()
	if err != nil {
		return nil, err
	}
	w := &Watcher{opts: opts, fs: fw, done: make(chan struct{})}
	w.wg.Add(1)
	go w.loop()
	return w, nil
}

// Add starts watching a path (a folder: its entries' events are reported).
func (w *Watcher) Add(path string) error { return w.fs.Add(path) }

// Remove stops watching a path.
func (w *Watcher) Remove(path string) error { return w.fs.Remove(path) }

// Close stops the watch and waits for a running OnChange to return. Safe to call twice.
func (w *Watcher) Close() error {
	var err error
	w.once.Do(func() {
		close(w.done)
		err = w.fs.Close()
		w.wg.Wait()
	})
	return err
}

func (w *Watcher) loop() {
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
			if w.opts.Relevant == nil || w.opts.Relevant(w, ev) {
				timer.Reset(w.opts.Debounce)
			}
		case err, ok := <-w.fs.Errors:
			if !ok {
				return
			}
			if w.opts.OnError != nil {
				w.opts.OnError(err)
			}
			timer.Reset(w.opts.Debounce) // events may have been lost: look again
		case <-timer.C:
			select {
			case <-w.done:
				return
			default:
			}
			if w.opts.OnChange != nil {
				w.opts.OnChange()
			}
		}
	}
}
