package settings

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"go.uber.org/goleak"

	"github.com/wispapp/wisp/app/config"
	"github.com/wispapp/wisp/app/wire"
	"github.com/wispapp/wisp/internal/fault"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// events records the frames published.
type events struct {
	mu     sync.Mutex
	frames []wire.Frame
}

func (e *events) Publish(f wire.Frame) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.frames = append(e.frames, f)
}

func (e *events) all() []wire.Frame {
	e.mu.Lock()
	defer e.mu.Unlock()
	return slices.Clone(e.frames)
}

// owner is a config.Consumer whose answers are functions.
type owner struct {
	verify func(from, to config.Config) error
	commit func(from, to config.Config) bool
}

func (o owner) VerifyConfig(from, to config.Config) error {
	if o.verify == nil {
		return nil
	}
	return o.verify(from, to)
}

func (o owner) CommitConfig(from, to config.Config) bool {
	if o.commit == nil {
		return true
	}
	return o.commit(from, to)
}

// started is the settings of a new config file in a temporary folder, every setting
// owned by live (the character's and the model's) or by restart (the rest).
func started(t *testing.T, restart owner) (*Settings, *events) {
	t.Helper()
	ev := &events{}
	s, err := New(Options{
		Path: filepath.Join(t.TempDir(), "wisp.json"), Getenv: func(string) string { return "" }, Port: -1,
		Events: ev, Status: func() wire.Frame { return wire.NewConfigError("status") },
	})
	if err != nil {
		t.Fatal(err)
	}
	live := slices.Concat(config.Section("character"), config.Section("model"))
	var rest []string
	for _, f := range config.Fields() {
		if !slices.Contains(live, f.Path) {
			rest = append(rest, f.Path)
		}
	}
	if err := errors.Join(s.Own("live", owner{}, live...), s.Own("restart", restart, rest...), s.CheckOwned()); err != nil {
		t.Fatal(err)
	}
	if err := s.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Stop)
	return s, ev
}

func rename(f *config.File, name string) error {
	f.Config.Character.Name = name
	return nil
}

func TestChangeSavesAndAppliesAtOnce(t *testing.T) {
	s, ev := started(t, owner{})
	if err := s.Change(context.Background(), func(f *config.File) error { return rename(f, "Ada") }); err != nil {
		t.Fatal(err)
	}
	if s.Live().Character.Name != "Ada" || s.File().Character.Name != "Ada" {
		t.Fatalf("live %q, file %q", s.Live().Character.Name, s.File().Character.Name)
	}
	f, err := config.Read(s.Path())
	if err != nil || f.Config.Character.Name != "Ada" {
		t.Fatalf("on disk: %v %v", f, err)
	}
	if !slices.ContainsFunc(ev.all(), func(f wire.Frame) bool {
		c, ok := f.(wire.ConfigChanged)
		return ok && slices.Equal(c.Paths, []string{"character.name"})
	}) {
		t.Fatalf("no config-changed for character.name: %v", ev.all())
	}
}

func TestRefusedChangeIsNotSaved(t *testing.T) {
	s, _ := started(t, owner{verify: func(_, to config.Config) error {
		if to.Server.Port == 1 {
			return errors.New("port 1 is not for Wisp")
		}
		return nil
	}})
	err := s.Change(context.Background(), func(f *config.File) error {
		f.Config.Server.Port = 1
		return nil
	})
	if fault.KindOf(err) != fault.Invalid || !strings.Contains(err.Error(), "port 1") {
		t.Fatalf("want an invalid change, got %v", err)
	}
	if f, _ := config.Read(s.Path()); f.Config.Server.Port == 1 || s.Live().Server.Port == 1 {
		t.Fatal("a refused change was saved or applied")
	}
}

// A setting its owner cannot apply while Wisp runs waits for a restart, which
// settles it; changed back before that, it stops waiting.
func TestRestartOnlyChangeWaitsForRestart(t *testing.T) {
	s, ev := started(t, owner{commit: func(_, _ config.Config) bool { return false }})
	shell := func(on bool) error {
		return s.Change(context.Background(), func(f *config.File) error {
			f.Config.Features.ShellEnabled = on
			return nil
		})
	}
	if err := shell(true); err != nil {
		t.Fatal(err)
	}
	reasons, _ := s.Pending()
	if len(reasons) != 1 || !slices.ContainsFunc(ev.all(), func(f wire.Frame) bool { _, ok := f.(wire.RestartRequired); return ok }) {
		t.Fatalf("reasons %v, frames %v", reasons, ev.all())
	}
	if err := shell(false); err != nil {
		t.Fatal(err)
	}
	if reasons, _ := s.Pending(); len(reasons) != 0 {
		t.Fatalf("changed back, still waiting: %v", reasons)
	}
	if err := shell(true); err != nil {
		t.Fatal(err)
	}
	var rebuilt config.Config
	if err := s.Restart(func(live config.Config) error { rebuilt = live; return nil }); err != nil {
		t.Fatal(err)
	}
	if reasons, _ := s.Pending(); len(reasons) != 0 || !rebuilt.Features.ShellEnabled {
		t.Fatalf("after the restart: reasons %v, rebuilt with shell %v", reasons, rebuilt.Features.ShellEnabled)
	}
}

// A change made while a restart runs waits for it: no change lands half way.
func TestChangeWaitsForRestart(t *testing.T) {
	s, _ := started(t, owner{})
	entered, release := make(chan struct{}), make(chan struct{})
	restarted := make(chan error, 1)
	go func() {
		restarted <- s.Restart(func(config.Config) error {
			close(entered)
			<-release
			return nil
		})
	}()
	<-entered
	changed := make(chan error, 1)
	go func() {
		changed <- s.Change(context.Background(), func(f *config.File) error { return rename(f, "Ada") })
	}()
	select {
	case err := <-changed:
		t.Fatalf("a change landed during the restart: %v", err)
	default:
	}
	close(release)
	if err := <-restarted; err != nil {
		t.Fatal(err)
	}
	if err := <-changed; err != nil || s.Live().Character.Name != "Ada" {
		t.Fatalf("after the restart: %v, %q", err, s.Live().Character.Name)
	}
}

// A broken file keeps the last good settings, is reported, and is not overwritten
// by a change; a valid file again clears the error.
func TestBrokenFileKeepsTheLastGoodSettings(t *testing.T) {
	s, ev := started(t, owner{})
	if err := os.WriteFile(s.Path(), []byte("{broken"), 0o600); err != nil {
		t.Fatal(err)
	}
	s.Reload()
	if _, msg := s.Pending(); msg == "" {
		t.Fatal("no config error")
	}
	if !slices.ContainsFunc(ev.all(), func(f wire.Frame) bool { _, ok := f.(wire.ConfigError); return ok }) {
		t.Fatalf("no config-error frame: %v", ev.all())
	}
	err := s.Change(context.Background(), func(f *config.File) error { return rename(f, "Ada") })
	if fault.KindOf(err) != fault.Conflict {
		t.Fatalf("want a conflict, got %v", err)
	}
	if data, _ := os.ReadFile(s.Path()); string(data) != "{broken" {
		t.Fatalf("the hand edit was overwritten: %s", data)
	}
	if err := os.WriteFile(s.Path(), []byte(`{"character":{"name":"Bo"}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	s.Reload()
	if _, msg := s.Pending(); msg != "" || s.Live().Character.Name != "Bo" {
		t.Fatalf("error %q, name %q", msg, s.Live().Character.Name)
	}
}

// The watcher's reload reads the file in its turn: one queued behind a change applies
// the changed file, never a copy read before the change was saved.
func TestReloadAfterAChangeKeepsIt(t *testing.T) {
	s, _ := started(t, owner{})
	if err := s.Change(context.Background(), func(f *config.File) error { return rename(f, "Ada") }); err != nil {
		t.Fatal(err)
	}
	s.Reload()
	if got := s.Live().Character.Name; got != "Ada" {
		t.Fatalf("after a change and a reload: %q", got)
	}
}

func TestSettingsNotStartedRefuseChanges(t *testing.T) {
	s, err := New(Options{Path: filepath.Join(t.TempDir(), "wisp.json"), Getenv: func(string) string { return "" }, Port: -1})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Change(context.Background(), func(f *config.File) error { return rename(f, "Ada") }); fault.KindOf(err) != fault.Unavailable {
		t.Fatalf("want unavailable, got %v", err)
	}
}

func TestStoppedSettingsRefuseChanges(t *testing.T) {
	s, _ := started(t, owner{})
	s.Stop()
	err := s.Change(context.Background(), func(f *config.File) error { return rename(f, "Ada") })
	if fault.KindOf(err) != fault.Unavailable {
		t.Fatalf("want unavailable, got %v", err)
	}
}
