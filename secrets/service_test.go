package secrets

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/godbus/dbus/v5"
	"github.com/zalando/go-keyring"
	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// stub is the library as a test wants it: a map, or calls that wait for release.
type stub struct {
	mu      sync.Mutex
	items   map[string]string // service + "/" + user → password
	err     error             // every call's answer, when set
	release chan struct{}     // when set, calls wait for it to close
	calls   int
}

func (s *stub) wait() error {
	s.mu.Lock()
	s.calls++
	release, err := s.release, s.err
	s.mu.Unlock()
	if release != nil {
		<-release
	}
	return err
}

func (s *stub) count() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.calls
}

func (s *stub) Get(service, user string) (string, error) {
	if err := s.wait(); err != nil {
		return "", err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	v, ok := s.items[service+"/"+user]
	if !ok {
		return "", keyring.ErrNotFound
	}
	return v, nil
}

func (s *stub) Set(service, user, password string) error {
	if err := s.wait(); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.items[service+"/"+user] = password
	return nil
}

func (s *stub) Delete(service, user string) error {
	if err := s.wait(); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.items[service+"/"+user]; !ok {
		return keyring.ErrNotFound
	}
	delete(s.items, service+"/"+user)
	return nil
}

func newService(b backend, timeout time.Duration, env map[string]string) *SecretService {
	return NewSecretService(Options{Service: "wisp:/s/wisp.json", Timeout: timeout,
		Getenv: func(k string) string { return env[k] }, backend: b, userBus: "/nonexistent/bus"})
}

var onBus = map[string]string{"DBUS_SESSION_BUS_ADDRESS": "unix:path=/tmp/test-bus"}

func TestKeepsSecretsUnderTheService(t *testing.T) {
	b := &stub{items: map[string]string{}}
	s := newService(b, time.Minute, onBus)
	ctx := context.Background()
	if _, err := s.Get(ctx, "model.apiKey"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("get before set: %v, want ErrNotFound", err)
	}
	if err := Put(ctx, s, "model.apiKey", "sk-1"); err != nil {
		t.Fatal(err)
	}
	if b.items["wisp:/s/wisp.json/model.apiKey"] != "sk-1" {
		t.Fatalf("items %v", b.items)
	}
	if v, err := s.Get(ctx, "model.apiKey"); err != nil || v != "sk-1" {
		t.Fatalf("get: %q %v", v, err)
	}
	if err := s.Delete(ctx, "model.apiKey"); err != nil {
		t.Fatal(err)
	}
	if err := s.Delete(ctx, "model.apiKey"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("second delete: %v, want ErrNotFound", err)
	}
}

// changing keeps what it is given, altered.
type changing struct{ *Fake }

func (c changing) Set(ctx context.Context, name, value string) error {
	return c.Fake.Set(ctx, name, value+" ")
}

func TestPutReadsBack(t *testing.T) {
	ctx := context.Background()
	if err := Put(ctx, changing{NewFake(nil)}, "api.token", "t"); err == nil || !strings.Contains(err.Error(), "changed") {
		t.Fatalf("a value given back changed: %v", err)
	}
	lost := NewFake(nil)
	lost.Fail = func(op, _ string) error {
		if op == "get" {
			return ErrNotFound
		}
		return nil
	}
	if err := Put(ctx, lost, "api.token", "t"); err == nil || !strings.Contains(err.Error(), "lost") {
		t.Fatalf("a value not given back: %v", err)
	}
}

func TestNoSessionBusAsksNothing(t *testing.T) {
	b := &stub{items: map[string]string{}}
	s := newService(b, time.Minute, nil)
	_, err := s.Get(context.Background(), "model.apiKey")
	if !errors.Is(err, ErrNoSessionBus) {
		t.Fatalf("err %v", err)
	}
	if b.count() != 0 {
		t.Fatalf("the library was asked %d times", b.count())
	}
	s = newService(b, time.Minute, map[string]string{"DBUS_SESSION_BUS_ADDRESS": "autolaunch:"})
	if err := s.Set(context.Background(), "x", "y"); err == nil || b.count() != 0 {
		t.Fatalf("autolaunch: %v, %d calls", err, b.count())
	}
}

func TestExplainsFailures(t *testing.T) {
	cases := []struct {
		err  error
		want string
	}{
		{dbus.Error{Name: "org.freedesktop.DBus.Error.ServiceUnknown"}, "no Secret Service on the session bus"},
		{keyring.ErrSetDataTooBig, "too long"},
		{errors.New("dial unix /nowhere: connect: no such file or directory"), "keep model.apiKey in the keyring: dial unix"},
	}
	for _, c := range cases {
		s := newService(&stub{items: map[string]string{}, err: c.err}, time.Minute, onBus)
		if err := s.Set(context.Background(), "model.apiKey", "v"); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: got %v, want %q", c.err, err, c.want)
		}
	}
}

// A Secret Service that never answers costs one timeout; calls while it still has
// not answered fail at once; once it answers, calls go through again.
func TestBoundedWhenTheKeyringNeverAnswers(t *testing.T) {
	release := make(chan struct{})
	b := &stub{items: map[string]string{}, release: release}
	s := newService(b, 50*time.Millisecond, onBus)
	start := time.Now()
	_, err := s.Get(context.Background(), "model.apiKey")
	if err == nil || !strings.Contains(err.Error(), "did not answer within 50ms") {
		t.Fatalf("err %v", err)
	}
	if took := time.Since(start); took > 5*time.Second {
		t.Fatalf("took %s", took)
	}
	if err := s.Set(context.Background(), "model.apiKey", "v"); err == nil || !strings.Contains(err.Error(), "earlier call") {
		t.Fatalf("second call: %v", err)
	}
	if n := b.count(); n != 1 {
		t.Fatalf("the library was asked %d times, want 1", n)
	}
	b.mu.Lock()
	b.release = nil
	b.mu.Unlock()
	close(release)
	s.late.Wait()
	if err := s.Set(context.Background(), "model.apiKey", "v"); err != nil {
		t.Fatalf("after the late answer: %v", err)
	}
}

func TestCallerContextEndsTheWait(t *testing.T) {
	release := make(chan struct{})
	s := newService(&stub{items: map[string]string{}, release: release}, time.Hour, onBus)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := s.Get(ctx, "x"); !errors.Is(err, context.Canceled) {
		t.Fatalf("err %v", err)
	}
	close(release)
	s.late.Wait()
}

func TestServiceForIsTheAbsolutePath(t *testing.T) {
	if got := ServiceFor("/home/ada/.local/state/wisp/../wisp/wisp.json"); got != "wisp:/home/ada/.local/state/wisp/wisp.json" {
		t.Fatalf("got %q", got)
	}
	rel := ServiceFor("wisp.json")
	if !strings.HasPrefix(rel, "wisp:/") || !filepath.IsAbs(strings.TrimPrefix(rel, "wisp:")) {
		t.Fatalf("relative: %q", rel)
	}
}
