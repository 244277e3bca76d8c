package chat

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/wispapp/wisp/app/dialect"
	"github.com/wispapp/wisp/app/store"
	"github.com/wispapp/wisp/app/wire"
	"github.com/wispapp/wisp/runtime"
	"github.com/wispapp/wisp/runtime/llm"
	"github.com/wispapp/wisp/runtime/reply"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// wait bounds how long a test waits for something the service does in the background.
const wait = 10 * time.Second

var quiet = slog.New(slog.DiscardHandler)

// scriptAgent plays its events as a turn, folding them through runtime.Apply as the
// real agent does. Before the event at index holdAt it waits for release (or for the
// turn to be cancelled); a negative holdAt never waits.
type scriptAgent struct {
	events  []runtime.Event
	holdAt  int
	held    chan struct{} // closed when the turn reaches holdAt
	release chan struct{}
	err     error // what the turn returns after its events
}

func newScript(holdAt int, events ...runtime.Event) *scriptAgent {
	return &scriptAgent{events: events, holdAt: holdAt, held: make(chan struct{}), release: make(chan struct{})}
}

func (a *scriptAgent) Turn(ctx context.Context, _ runtime.Input, emit runtime.Emit) (runtime.Result, error) {
	var rep reply.Reply
	result := func() runtime.Result {
		return runtime.Result{FullText: rep.FullText(), History: rep.History(), Segments: rep.Segments()}
	}
	for i, ev := range a.events {
		if i == a.holdAt {
			close(a.held)
			select {
			case <-a.release:
			case <-ctx.Done():
				return result(), ctx.Err()
			}
		}
		emit(ev, runtime.Apply(&rep, ev))
	}
	return result(), a.err
}

// Resume is not scripted: chat's pause tests run the real agent (pause_test.go).
func (a *scriptAgent) Resume(context.Context, runtime.ResumeInput, runtime.Emit) (runtime.Result, error) {
	return runtime.Result{}, runtime.ErrNoPause
}

func (a *scriptAgent) Title(context.Context, string, string) (string, llm.Usage) {
	return "A title", llm.Usage{}
}

func (a *scriptAgent) Settings() runtime.Settings {
	return runtime.Settings{Character: runtime.Character{Name: "Wisp"}}
}

func text(s string) runtime.Event {
	return runtime.Event{Type: runtime.EventTextDelta, Data: runtime.TextDelta{Text: s}}
}

func toolStart(id, name string) runtime.Event {
	return runtime.Event{Type: runtime.EventToolStart, Data: runtime.ToolStart{CallID: id, Name: name, Arguments: json.RawMessage(`{}`)}}
}

func callback(id, s string) runtime.Event {
	return runtime.Event{Type: runtime.EventCallback, Data: runtime.Callback{CallID: id, Text: s, Merge: runtime.MergeReplace}}
}

func toolEnd(id, name, result string) runtime.Event {
	return runtime.Event{Type: runtime.EventToolEnd, Data: runtime.ToolEnd{CallID: id, Name: name, Result: result}}
}

// frames records what the service publishes.
type frames struct {
	mu  sync.Mutex
	all []wire.Frame
}

func (f *frames) Publish(fr wire.Frame) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.all = append(f.all, fr)
}

func (f *frames) ofType(typ string) []wire.Frame {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []wire.Frame
	for _, fr := range f.all {
		if fr.FrameType() == typ {
			out = append(out, fr)
		}
	}
	return out
}

// env is a started chat service on a real SQLite file.
type env struct {
	t      *testing.T
	st     *store.Store
	svc    *Service
	frames *frames
}

// newEnv opens a store in a fresh folder and starts a service on it with agent.
func newEnv(t *testing.T, agent Agent) *env {
	t.Helper()
	st, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "wisp.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return startOn(t, st, agent)
}

// startOn starts a service on an open store; it is stopped when the test ends.
func startOn(t *testing.T, st *store.Store, agent Agent) *env {
	t.Helper()
	e := &env{t: t, st: st, frames: &frames{}}
	e.svc = New(Options{Store: st, Agent: agent, Events: e.frames, Logger: quiet, NoTitles: true})
	if err := e.svc.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(e.svc.Stop)
	return e
}

func (e *env) conversation() string {
	e.t.Helper()
	c, err := e.svc.CreateConversation(context.Background(), "", nil)
	if err != nil {
		e.t.Fatal(err)
	}
	return c.ID
}

func (e *env) send(convID, text string) *Run {
	e.t.Helper()
	run, err := e.svc.Send(context.Background(), convID, SendInput{Text: text})
	if err != nil {
		e.t.Fatal(err)
	}
	return run
}

// frame is an SSE frame as a client reads it.
type frame struct {
	Seq  int64
	JSON string
}

func (f frame) decode() map[string]any {
	var m map[string]any
	_ = json.Unmarshal([]byte(f.JSON), &m)
	return m
}

// next reads n frames of a subscription.
func next(t *testing.T, sub *Subscription, n int) []frame {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), wait)
	defer cancel()
	var out []frame
	for len(out) < n {
		f, err := sub.Next(ctx)
		if err != nil {
			t.Fatalf("after %d frames: %v", len(out), err)
		}
		out = append(out, frame{f.Seq, string(f.Data)})
	}
	return out
}

// rest reads a subscription to its end.
func rest(t *testing.T, sub *Subscription) []frame {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), wait)
	defer cancel()
	var out []frame
	for {
		f, err := sub.Next(ctx)
		if errors.Is(err, io.EOF) {
			return out
		}
		if err != nil {
			t.Fatalf("after %d frames: %v", len(out), err)
		}
		out = append(out, frame{f.Seq, string(f.Data)})
	}
}

func subscribe(t *testing.T, s *Service, runID string, after int64) *Subscription {
	t.Helper()
	return subscribeIn(t, s, runID, after, dialect.NewEliza())
}

func subscribeIn(t *testing.T, s *Service, runID string, after int64, d dialect.Encoder) *Subscription {
	t.Helper()
	sub, err := s.Subscribe(context.Background(), runID, after, d)
	if err != nil {
		t.Fatal(err)
	}
	return sub
}

func waitRun(t *testing.T, run *Run) Outcome {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), wait)
	defer cancel()
	out, err := run.Wait(ctx)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// waitCompacted waits until the run's goroutine, which folds its log right after the
// end, has finished, and checks the log was compacted.
func (e *env) waitCompacted(run *Run) {
	e.t.Helper()
	select {
	case <-run.Done():
	case <-time.After(wait):
		e.t.Fatalf("run %s did not finish within %v", run.ID, wait)
	}
	e.requireCompacted(run.ID)
}

func (e *env) requireCompacted(runID string) {
	e.t.Helper()
	r, err := e.st.Run(context.Background(), runID)
	if err != nil {
		e.t.Fatal(err)
	}
	if !r.Compacted {
		e.t.Fatalf("run %s was not compacted", runID)
	}
}
