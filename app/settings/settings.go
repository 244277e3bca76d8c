// Package settings owns Wisp's config file while Wisp runs (syncthing's lib/config
// wrapper): the file as last read, the effective settings Wisp runs with, the
// owners of every setting (config.Committer), and one queue of modifications
// drained by one goroutine. The watcher's reloads, the API's changes and a restart
// all go through that queue, so no change lands half way through another and
// nothing needs a lock around the file. Readers (Live, Pending) see an immutable
// snapshot.
//
// It knows nothing of HTTP, the store or the services it configures: those own
// their settings through Own. It must not import app.
package settings

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/wispapp/wisp/app/config"
	"github.com/wispapp/wisp/app/wire"
	"github.com/wispapp/wisp/internal/fault"
	"github.com/wispapp/wisp/secrets"
)

// Options configure the settings of one config file.
type Options struct {
	Path   string        // the config file
	Getenv config.Getenv // the environment's overrides
	Host   string        // the command line's server.host override, when set
	Port   int           // the command line's server.port override when >= 0
	// Keyring keeps the secrets of the file (nil: the file keeps them).
	Keyring secrets.Keyring
	// Events gets config-changed, config-error and restart-required; it is used only
	// once Start has run.
	Events wire.Events
	// Status is the status frame sent to every client after a change.
	Status func() wire.Frame
	// Autostart is the entry on disk that desktop.openAtLogin shows (optional).
	Autostart Autostart
	Logger    *slog.Logger
}

// Autostart is the user's "open at login" entry, which the settings view shows in
// place of the file's wish.
type Autostart interface {
	On() bool
	Set(on bool) error
}

// Settings is the config file as Wisp runs it.
type Settings struct {
	opts      Options
	log       *slog.Logger
	kept      *keptSecrets
	committer config.Committer // the owners of the settings; registered before Start

	snap atomic.Pointer[snapshot]

	// Owned by the goroutine that drains ops (before Start, by the caller of New).
	running config.Config   // what the services were built from
	waiting map[string]bool // settings whose owner could not apply a change while Wisp runs
	reasons config.Reasons  // the waiting settings that differ from what the services run

	ops     chan func()
	started atomic.Bool   // the queue is drained (Start)
	done    chan struct{} // closed by Stop
	wg      sync.WaitGroup
	stop    sync.Once
}

// snapshot is what readers see; a change replaces it whole.
type snapshot struct {
	file    *config.File  // the last good file
	live    config.Config // its effective settings
	reasons []string      // the pending restart reasons
	err     string        // why the file on disk cannot be used; "" when it can
}

// New loads the config file (creating it when it is missing), reads the secrets
// the keyring keeps, and checks the effective settings. Nothing runs yet.
func New(opts Options) (*Settings, error) {
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	f, err := config.Load(opts.Path)
	if err != nil {
		return nil, err
	}
	s := &Settings{opts: opts, log: opts.Logger, waiting: map[string]bool{},
		ops: make(chan func()), done: make(chan struct{})}
	s.kept = newKeptSecrets(opts.Keyring, secrets.ServiceFor(opts.Path), s.log)
	s.kept.open(context.Background())
	live, err := s.effective(s.kept.fill(f))
	if err != nil {
		return nil, err
	}
	s.snap.Store(&snapshot{file: f, live: live, reasons: []string{}})
	return s, nil
}

// Path is the config file's.
func (s *Settings) Path() string { return s.opts.Path }

// Own makes c the owner of the settings at paths (see config.Committer.Own). Call
// it before Start.
func (s *Settings) Own(name string, c config.Consumer, paths ...string) error {
	return s.committer.Own(name, c, paths...)
}

// CheckOwned fails when a setting has no owner.
func (s *Settings) CheckOwned() error {
	if left := s.committer.Unowned(); len(left) > 0 {
		return fmt.Errorf("settings without an owner: %s", strings.Join(left, ", "))
	}
	return nil
}

// Committer is the owners of the settings (tests commit changes through it).
func (s *Settings) Committer() *config.Committer { return &s.committer }

// Live is the effective config of the last good file.
func (s *Settings) Live() config.Config { return s.snap.Load().live }

// Pending returns the restart reasons and the config file's error.
func (s *Settings) Pending() ([]string, string) {
	sn := s.snap.Load()
	return sn.reasons, sn.err
}

// File is the last good file's own settings (without the kept secrets' values).
func (s *Settings) File() config.Config { return s.snap.Load().file.Config }

// Start takes the live settings as what the services run, and drains the queue of
// modifications until Stop.
func (s *Settings) Start(context.Context) error {
	s.running = s.Live()
	s.started.Store(true)
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		for {
			select {
			case op := <-s.ops:
				op()
			case <-s.done:
				return
			}
		}
	}()
	return nil
}

// Stop ends the queue once the modification in progress is done; later ones fail.
func (s *Settings) Stop() {
	s.stop.Do(func() { close(s.done) })
	s.wg.Wait()
}

// do runs op on the queue's goroutine and returns its error.
func (s *Settings) do(op func() error) error {
	if !s.started.Load() {
		return fault.Unavailable.Errorf("Wisp is not running")
	}
	result := make(chan error, 1)
	select {
	case s.ops <- func() { result <- op() }:
		return <-result
	case <-s.done:
		return fault.Unavailable.Errorf("Wisp is stopping")
	}
}

// effective is what a process runs with for the file's settings: the file, then the
// environment, then the command line.
func (s *Settings) effective(file config.Config) (config.Config, error) {
	cfg, err := file.WithEnv(s.opts.Getenv)
	if err != nil {
		return cfg, fmt.Errorf("environment: %w", err)
	}
	if s.opts.Host != "" {
		cfg.Server.Host = s.opts.Host
	}
	if s.opts.Port >= 0 {
		cfg.Server.Port = s.opts.Port
	}
	return cfg, cfg.Validate()
}
