// Package fswatch follows folders with fsnotify and calls back once a burst of
// changes has settled. Its errors channel is always drained (fsnotify can deadlock
// when it is not) and an error counts as a change, since events may have been lost.
// The debounce runs on an injectable clock, so tests decide when a burst is over.
package fswatch

import (
	"sync"
	"time"

	"github.com/fsnotify/fsnotify"
	"github.com/wispapp/wisp/internal/clock"
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
	// Clock times the debounce; default the system clock (tests use a fake one).
	Clock clock.Clock
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
	if opts.Clock == nil {
		opts.Clock = clock.System{}
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
	var timer clock.Timer
	var settled <-chan time.Time // fires once the folder stayed quiet for the debounce
	rearm := func() {
		if timer != nil {
			timer.Stop()
		}
		timer = w.opts.Clock.NewTimer(w.opts.Debounce)
		settled = timer.C()
	}
	defer func() {
		if timer != nil {
			timer.Stop()
		}
	}()
	for {
		select {
		case <-w.done:
			return
		case ev, ok := <-w.fs.Events:
			if !ok {
				return
			}
			if w.opts.Relevant == nil || w.opts.Relevant(w, ev) {
				rearm()
			}
		case err, ok := <-w.fs.Errors:
			if !ok {
				return
			}
			if w.opts.OnError != nil {
				w.opts.OnError(err)
			}
			rearm() // events may have been lost: look again
		case <-settled:
			timer, settled = nil, nil
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
