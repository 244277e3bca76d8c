package config

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"time"

	"github.com/fsnotify/fsnotify"

	"github.com/wispapp/wisp/internal/fswatch"
)

// DefaultDebounce is how long the config file must stay quiet before it is read.
const DefaultDebounce = 100 * time.Millisecond

// WatchOptions configure Watch.
type WatchOptions struct {
	Debounce time.Duration // default DefaultDebounce
	// OnChange gets the file as it now is on disk, or why it cannot be used (invalid
	// JSON, a failed validation, a missing file). It runs on the watcher's goroutine.
	OnChange func(*File, error)
	// OnError reports a failure of the watch itself (optional).
	OnError func(error)
}

// Watcher follows the config file.
type Watcher struct {
	path string
	opts WatchOptions
	w    *fswatch.Watcher
}

// NewWatcher builds a watcher of the config file at path; Start starts it. It
// watches the file's folder, not the file: editors save by writing a new file and
// renaming it over the old one (or renaming the old one away first), after which a
// watch on the file itself sees nothing more.
func NewWatcher(path string, opts WatchOptions) *Watcher {
	if opts.Debounce <= 0 {
		opts.Debounce = DefaultDebounce
	}
	return &Watcher{path: filepath.Clean(path), opts: opts}
}

// Start watches until Stop.
func (wt *Watcher) Start(context.Context) error {
	path, opts := wt.path, wt.opts
	w, err := fswatch.New(fswatch.Options{
		Debounce: opts.Debounce,
		Relevant: about(path),
		OnChange: func() { opts.OnChange(Read(path)) },
		OnError:  opts.OnError,
	})
	if err != nil {
		return err
	}
	if err := w.Add(filepath.Dir(path)); err != nil {
		w.Close()
		return fmt.Errorf("watch config folder: %w", err)
	}
	wt.w = w
	return nil
}

// about says whether an event in the file's folder is about the file itself; the
// database's writes and editors' backups beside it are not.
func about(path string) func(*fswatch.Watcher, fsnotify.Event) bool {
	return func(_ *fswatch.Watcher, ev fsnotify.Event) bool { return filepath.Clean(ev.Name) == path }
}

// Stop stops watching and waits for a running OnChange.
func (wt *Watcher) Stop() {
	if wt.w != nil {
		_ = wt.w.Close()
	}
}

// Read reads and validates the config file without creating it when it is missing.
// It refuses what readFile refuses, and never blocks on what it finds at path.
func Read(path string) (*File, error) {
	data, err := readFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("config file %s is missing; Wisp keeps its current settings (saving settings writes it again): %w", path, err)
	}
	if err != nil {
		return nil, fmt.Errorf("read config: %w", err)
	}
	return Parse(path, data)
}
