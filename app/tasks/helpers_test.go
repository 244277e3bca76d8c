package tasks

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/wispapp/wisp/app/store"
	"github.com/wispapp/wisp/app/wire"
	"github.com/wispapp/wisp/internal/clock"
	"github.com/wispapp/wisp/internal/ids"
)

func TestMain(m *testing.M) {
	if os.Getenv(childDB) != "" {
		runChild() // the kill -9 test's child (kill_test.go): never returns
	}
	goleak.VerifyTestMain(m)
}

var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

// wait is how long a test gives the code under test to reach a state on a busy
// machine before it calls the wait failed.
const wait = 30 * time.Second

func zone(t *testing.T, name string) *time.Location {
	t.Helper()
	loc, err := time.LoadLocation(name)
	if err != nil {
		t.Fatal(err)
	}
	return loc
}

// frames records what the service publishes.
type frames struct {
	mu     sync.Mutex
	all    []wire.Frame
	notify chan struct{}
}

func newFrames() *frames { return &frames{notify: make(chan struct{}, 1)} }

func (f *frames) Publish(fr wire.Frame) {
	f.mu.Lock()
	f.all = append(f.all, fr)
	f.mu.Unlock()
	select {
	case f.notify <- struct{}{}:
	default:
	}
}

// waitFor waits until a published frame satisfies ok, and returns it.
func (f *frames) waitFor(t *testing.T, what string, ok func(wire.Frame) bool) wire.Frame {
	t.Helper()
	give := time.After(wait)
	for {
		f.mu.Lock()
		for _, fr := range f.all {
			if ok(fr) {
				f.mu.Unlock()
				return fr
			}
		}
		f.mu.Unlock()
		select {
		case <-f.notify:
		case <-give:
			t.Fatalf("no frame: %s", what)
		}
	}
}

// started is a run the fake runner started.
type started struct {
	convID, prompt, runID string
	meta                  json.RawMessage
}

// fakeRunner starts runs by claiming their slot in a real transaction (as chat's
// first one does), and reports what the test sends on a run's events channel.
type fakeRunner struct {
	st      *store.Store
	starts  chan started
	mu      sync.Mutex
	busy    int // how many starts answer ErrBusy first
	events  map[string]chan RunEvent
	startFn func() error // when set, fails the start after the claim is tried
}

func newRunner(st *store.Store) *fakeRunner {
	return &fakeRunner{st: st, starts: make(chan started, 16), events: map[string]chan RunEvent{}}
}

func (r *fakeRunner) Start(ctx context.Context, convID, prompt string, meta json.RawMessage,
	claim func(ctx context.Context, tx *store.Tx, runID string) error) (string, error) {
	r.mu.Lock()
	if r.busy > 0 {
		r.busy--
		r.mu.Unlock()
		return "", ErrBusy
	}
	r.mu.Unlock()
	runID := "run-" + ids.New()
	if err := r.st.InTx(ctx, func(tx *store.Tx) error {
		if _, err := tx.Conversation(ctx, convID); err != nil {
			return err
		}
		return claim(ctx, tx, runID)
	}); err != nil {
		return "", err
	}
	r.eventsOf(runID)
	r.starts <- started{convID: convID, prompt: prompt, runID: runID, meta: meta}
	return runID, nil
}

func (r *fakeRunner) eventsOf(runID string) chan RunEvent {
	r.mu.Lock()
	defer r.mu.Unlock()
	ch, ok := r.events[runID]
	if !ok {
		ch = make(chan RunEvent, 8)
		r.events[runID] = ch
	}
	return ch
}

func (r *fakeRunner) Follow(ctx context.Context, runID string, on func(RunEvent)) bool {
	ch := r.eventsOf(runID)
	for {
		select {
		case ev := <-ch:
			on(ev)
			if ev.Kind == RunEnded {
				return true
			}
		case <-ctx.Done():
			return false
		}
	}
}

// nextStart waits for the runner's next start.
func (r *fakeRunner) nextStart(t *testing.T) started {
	t.Helper()
	select {
	case s := <-r.starts:
		return s
	case <-time.After(wait):
		t.Fatal("no run started")
	}
	return started{}
}

// noStart checks that nothing was started (call it once the scheduler settled).
func (r *fakeRunner) noStart(t *testing.T) {
	t.Helper()
	select {
	case s := <-r.starts:
		t.Fatalf("a run started: %+v", s)
	default:
	}
}

// env is a service on a real database file, a fake clock and a fake runner.
type env struct {
	t      *testing.T
	path   string
	st     *store.Store
	clk    *clock.Fake
	loc    *time.Location
	frames *frames
	runner *fakeRunner
	svc    *Service
	conv   string
}

func newEnv(t *testing.T, loc *time.Location, now time.Time) *env {
	t.Helper()
	e := &env{t: t, path: filepath.Join(t.TempDir(), "wisp.db"), clk: clock.NewFake(now), loc: loc}
	e.open()
	e.conv = "c1"
	if err := e.st.CreateConversation(context.Background(), store.Conversation{ID: e.conv, Title: "T", RoomID: "room",
		CreatedAt: now, UpdatedAt: now}); err != nil {
		t.Fatal(err)
	}
	e.start()
	t.Cleanup(e.close)
	return e
}

func (e *env) open() {
	st, err := store.Open(context.Background(), e.path)
	if err != nil {
		e.t.Fatal(err)
	}
	e.st = st
	e.runner = newRunner(st)
}

// start starts a service as Wisp would at its start.
func (e *env) start() {
	e.t.Helper()
	e.frames = newFrames()
	e.svc = New(Options{Store: e.st, Events: e.frames, Runner: e.runner, Clock: e.clk, Location: e.loc, Logger: quiet})
	if err := e.svc.Start(context.Background()); err != nil {
		e.t.Fatal(err)
	}
}

// close stops the service and closes the database, as Wisp does when it stops.
func (e *env) close() {
	if e.svc != nil {
		e.svc.Stop()
		e.svc = nil
	}
	if e.st != nil {
		e.st.Close()
		e.st = nil
	}
}

// restart stops Wisp, moves the clock while it is off, and starts it again on the
// same database file.
func (e *env) restart(off time.Duration) {
	e.t.Helper()
	e.close()
	e.clk.Advance(off)
	e.open()
	e.start()
}

// settle waits until the scheduler armed its next timer.
func (e *env) settle() {
	e.t.Helper()
	if !e.clk.BlockUntil(1, wait) {
		e.t.Fatalf("the scheduler armed %d timers", e.clk.Waiters())
	}
}

func (e *env) create(in Input) wire.Task {
	e.t.Helper()
	if in.ConversationID == "" {
		in.ConversationID = e.conv
	}
	task, err := e.svc.Create(context.Background(), in)
	if err != nil {
		e.t.Fatal(err)
	}
	return task
}

func (e *env) task(id string) store.Task {
	e.t.Helper()
	task, err := e.st.Task(context.Background(), id)
	if err != nil {
		e.t.Fatal(err)
	}
	return task
}

func (e *env) lastRun(id string) store.TaskRun {
	e.t.Helper()
	r, ok, err := e.st.LastTaskRun(context.Background(), id)
	if err != nil || !ok {
		e.t.Fatalf("no run of %s (%v)", id, err)
	}
	return r
}

func ptr[T any](v T) *T { return &v }
