package main

import (
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/fsnotify/fsnotify"
)

// floor is the physical floor: a bare fsnotify watcher on a folder of its own,
// holding a wisp.json saved the same way as Wisp's.
type floor struct {
	path   string
	base   map[string]any
	w      *fsnotify.Watcher
	reader *reader
}

func startFloor(dir string, base map[string]any) (*floor, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("floor: %w", err)
	}
	f := &floor{path: filepath.Join(dir, "wisp.json"), base: base}
	data, err := withLimit(base, 1)
	if err != nil {
		return nil, err
	}
	if err := os.WriteFile(f.path, data, 0o600); err != nil {
		return nil, fmt.Errorf("floor: %w", err)
	}
	if f.w, err = fsnotify.NewWatcher(); err != nil {
		return nil, fmt.Errorf("floor: %w", err)
	}
	if err := f.w.Add(dir); err != nil {
		f.w.Close()
		return nil, fmt.Errorf("floor: watch %s: %w", dir, err)
	}
	f.reader = newReader()
	go f.read()
	return f, nil
}

// read reports every event for the file's name, and every watch error, until
// the watcher is closed. Events for other names (the temporary file) are
// skipped.
func (f *floor) read() {
	defer f.reader.wg.Done()
	for {
		select {
		case ev, ok := <-f.w.Events:
			if !ok {
				return
			}
			at := time.Now()
			if filepath.Clean(ev.Name) != f.path {
				continue
			}
			if !f.reader.report(arrival{at: at}) {
				return
			}
		case err, ok := <-f.w.Errors:
			if !ok {
				return
			}
			if !f.reader.report(arrival{err: fmt.Errorf("fsnotify: %w", err)}) {
				return
			}
		}
	}
}

func (f *floor) side() *side {
	return &side{name: "floor", path: f.path, base: f.base, reader: f.reader}
}

func (f *floor) stop() { f.reader.close(func() { _ = f.w.Close() }) }
