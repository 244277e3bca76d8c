package secrets

import (
	"context"
	"errors"
	"fmt"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/godbus/dbus/v5"
	"github.com/zalando/go-keyring"
)

// DefaultTimeout bounds each call to the Secret Service. A keyring answers in
// milliseconds, and one started on demand (D-Bus activation) within a second; one
// that takes longer is locked behind a password prompt nobody is answering, or
// stuck.
const DefaultTimeout = 3 * time.Second

// ErrNoSessionBus: there is no session bus to ask (a headless server, a service
// started outside the desktop session), so no keyring either.
var ErrNoSessionBus = errors.New("no D-Bus session bus (DBUS_SESSION_BUS_ADDRESS is not set)")

// backend is the keyring library's API: go-keyring's functions, a stand-in in tests.
type backend interface {
	Get(service, user string) (string, error)
	Set(service, user, password string) error
	Delete(service, user string) error
}

// goKeyring is the Secret Service through go-keyring (on Linux, godbus' shared
// session bus connection).
type goKeyring struct{}

func (goKeyring) Get(service, user string) (string, error) { return keyring.Get(service, user) }
func (goKeyring) Set(service, user, password string) error {
	return keyring.Set(service, user, password)
}
func (goKeyring) Delete(service, user string) error { return keyring.Delete(service, user) }

// Options configure a SecretService.
type Options struct {
	Service string        // ServiceFor(the config file)
	Timeout time.Duration // per call; DefaultTimeout when 0
	// Getenv finds the session bus (DBUS_SESSION_BUS_ADDRESS); os.Getenv when nil.
	Getenv  func(string) string
	backend backend // go-keyring unless a test says otherwise
	userBus string  // the user's bus socket, which godbus finds without the variable
}

// SecretService is the desktop's keyring. Calls are made one at a time, each bounded
// by the timeout. A call that times out goes on in the background until the bus
// answers or closes; until then every call fails at once with the same reason
// instead of adding another waiting goroutine.
type SecretService struct {
	opts    Options
	mu      sync.Mutex     // one call at a time
	waiting atomic.Bool    // a timed-out call has not returned yet
	late    sync.WaitGroup // that call's watcher (tests wait for it)
}

var _ Keyring = (*SecretService)(nil)

// NewSecretService is the Secret Service of the session bus, for opts.Service.
func NewSecretService(opts Options) *SecretService {
	if opts.Timeout <= 0 {
		opts.Timeout = DefaultTimeout
	}
	if opts.Getenv == nil {
		opts.Getenv = os.Getenv
	}
	if opts.backend == nil {
		opts.backend = goKeyring{}
	}
	if opts.userBus == "" {
		opts.userBus = fmt.Sprintf("/run/user/%d/bus", os.Getuid())
	}
	return &SecretService{opts: opts}
}

// Service is the service attribute of Wisp's items.
func (s *SecretService) Service() string { return s.opts.Service }

func (s *SecretService) Get(ctx context.Context, name string) (string, error) {
	var v string
	err := s.call(ctx, "read", name, func() (err error) {
		v, err = s.opts.backend.Get(s.opts.Service, name)
		return err
	})
	return v, err
}

func (s *SecretService) Set(ctx context.Context, name, value string) error {
	return s.call(ctx, "keep", name, func() error { return s.opts.backend.Set(s.opts.Service, name, value) })
}

func (s *SecretService) Delete(ctx context.Context, name string) error {
	return s.call(ctx, "remove", name, func() error { return s.opts.backend.Delete(s.opts.Service, name) })
}

// call runs f, bounded by the timeout and ctx.
func (s *SecretService) call(ctx context.Context, op, name string, f func() error) error {
	if err := noSessionBus(s.opts.Getenv, s.opts.userBus); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.waiting.Load() {
		return fmt.Errorf("the keyring has not answered an earlier call yet (it did not within %s)", s.opts.Timeout)
	}
	ctx, cancel := context.WithTimeout(ctx, s.opts.Timeout)
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- f() }()
	select {
	case err := <-done:
		return explain(op, name, err)
	case <-ctx.Done():
		s.waiting.Store(true)
		s.late.Go(func() { // the D-Bus call ends when the bus answers or its connection closes
			<-done
			s.waiting.Store(false)
		})
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			return fmt.Errorf("the keyring did not answer within %s (locked behind a password prompt, or stuck)", s.opts.Timeout)
		}
		return ctx.Err()
	}
}

// explain turns the library's and the bus' errors into reasons a user can act on.
func explain(op, name string, err error) error {
	var dbusErr dbus.Error
	switch {
	case err == nil:
		return nil
	case errors.Is(err, keyring.ErrNotFound):
		return ErrNotFound
	case errors.As(err, &dbusErr) && dbusErr.Name == "org.freedesktop.DBus.Error.ServiceUnknown":
		return errors.New("no Secret Service on the session bus (no keyring such as gnome-keyring or KWallet is running)")
	case errors.Is(err, keyring.ErrSetDataTooBig):
		return fmt.Errorf("%s is too long for the keyring", name)
	}
	return fmt.Errorf("%s %s in the keyring: %w", op, name, err)
}

// noSessionBus says why there is no session bus to ask, before the library is asked:
// without DBUS_SESSION_BUS_ADDRESS or the user's bus socket, godbus would try to
// start a bus of its own (dbus-launch --autolaunch), which is not Wisp's to do.
func noSessionBus(getenv func(string) string, userBus string) error {
	if addr := getenv("DBUS_SESSION_BUS_ADDRESS"); addr != "" && addr != "autolaunch:" {
		return nil
	}
	if _, err := os.Stat(userBus); err == nil {
		return nil // godbus finds the user's bus there
	}
	return ErrNoSessionBus
}
