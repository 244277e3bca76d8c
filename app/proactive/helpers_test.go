package proactive

import (
	"context"
	"encoding/json"
	"log/slog"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/wispapp/wisp/app/store"
	"github.com/wispapp/wisp/app/wire"
	"github.com/wispapp/wisp/internal/clock"
	"github.com/wispapp/wisp/internal/ids"
	"github.com/wispapp/wisp/runtime"
	"github.com/wispapp/wisp/runtime/llm"
	"github.com/wispapp/wisp/runtime/llm/llmtest"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// t0 is when every test's fake clock starts.
var t0 = time.Date(2026, 11, 21, 9, 0, 0, 0, time.UTC)

// wait is how long a test waits for something the service does in the background.
const wait = 5 * time.Second

// fakeHub records the frames the service publishes and lets a test say which
// conversation clients have open: it is the service's Events and Presence.
type fakeHub struct {
	mu      sync.Mutex
	frames  []map[string]any
	envs    []wire.Envelope
	active  string
	open    []string // conversations connected clients have open
	changed chan struct{}
}

func newFakeHub() *fakeHub { return &fakeHub{changed: make(chan struct{})} }

func (h *fakeHub) Publish(f wire.Frame) {
	h.mu.Lock()
	defer h.mu.Unlock()
	defer h.notifyLocked()
	if env, ok := f.(wire.Envelope); ok {
		h.envs = append(h.envs, env)
		return
	}
	var m map[string]any
	_ = json.Unmarshal(wire.JSON(f), &m)
	h.frames = append(h.frames, m)
}

func (h *fakeHub) ActiveConversation() (string, bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.active, h.active != ""
}

func (h *fakeHub) Showing(id string) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return slices.Contains(h.open, id)
}

// setActive makes a client open the conversation (the most recent one opened).
func (h *fakeHub) setActive(id string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.active = id
	h.open = append(h.open, id)
}

func (h *fakeHub) notifyLocked() {
	close(h.changed)
	h.changed = make(chan struct{})
}

// ofType returns the frames of a type sent so far.
func (h *fakeHub) ofType(typ string) []map[string]any {
	h.mu.Lock()
	defer h.mu.Unlock()
	var out []map[string]any
	for _, f := range h.frames {
		if f["type"] == typ {
			out = append(out, f)
		}
	}
	return out
}

// waitFrames waits until n frames of the type were sent.
func (h *fakeHub) waitFrames(t *testing.T, typ string, n int) []map[string]any {
	t.Helper()
	return waitUntil(t, h, func() ([]map[string]any, bool) {
		f := h.ofType(typ)
		return f, len(f) >= n
	}, "%d %s frames", n, typ)
}

// envelopes returns the envelopes published so far.
func (h *fakeHub) envelopes() []wire.Envelope {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]wire.Envelope(nil), h.envs...)
}

// waitEnvelope waits for an envelope whose payload has that kind (or, for the
// assistant stream, any).
func (h *fakeHub) waitEnvelope(t *testing.T, stream, kind string) wire.Envelope {
	t.Helper()
	return waitUntil(t, h, func() (wire.Envelope, bool) {
		for _, e := range h.envelopes() {
			if e.Stream == stream && (kind == "" || payloadOf(e)["kind"] == kind) {
				return e, true
			}
		}
		return wire.Envelope{}, false
	}, "a %s %s envelope", stream, kind)
}

func waitUntil[T any](t *testing.T, h *fakeHub, check func() (T, bool), format string, args ...any) T {
	t.Helper()
	deadline := time.After(wait)
	for {
		h.mu.Lock()
		changed := h.changed
		h.mu.Unlock()
		if v, ok := check(); ok {
			return v
		}
		select {
		case <-changed:
		case <-deadline:
			t.Fatalf("timed out waiting for "+format, args...)
		}
	}
}

func payloadOf(e wire.Envelope) map[string]any {
	var m map[string]any
	_ = json.Unmarshal(e.Payload, &m)
	return m
}

// harness is a proactive service on a real SQLite file, a fake clock, a fake hub and
// the fake LLM.
type harness struct {
	t     *testing.T
	path  string
	st    *store.Store
	hub   *fakeHub
	clk   *clock.Fake
	llm   *llmtest.Server
	svc   *Service
	mu    sync.Mutex
	set   Settings
	busy  bool
	noLLM bool
	used  []llm.Usage // what the ticks recorded
}

func newHarness(t *testing.T) *harness {
	t.Helper()
	h := &harness{
		t: t, path: filepath.Join(t.TempDir(), "wisp.db"), hub: newFakeHub(), clk: clock.NewFake(t0),
		llm: llmtest.New(),
		set: Settings{Interval: 30 * time.Second, MaxPerHour: 4, Cooldown: 2 * time.Minute, NotifyLongRuns: true},
	}
	t.Cleanup(h.llm.Close)
	h.open()
	return h
}

// open opens the database and builds a service on it (not started).
func (h *harness) open() {
	h.t.Helper()
	st, err := store.Open(context.Background(), h.path)
	if err != nil {
		h.t.Fatal(err)
	}
	h.st = st
	h.t.Cleanup(func() { st.Close() }) // after the service's Stop (cleanups run last first)
	prov, err := llm.New(llm.Config{Kind: llm.ProviderOpenAI, BaseURL: h.llm.OpenAIURL()})
	if err != nil {
		h.t.Fatal(err)
	}
	agent := runtime.New(runtime.Options{
		Provider: func() (llm.Provider, error) { return prov, nil },
		Settings: func() runtime.Settings {
			return runtime.Settings{Character: runtime.Character{Name: "Wisp", System: "You are Wisp."}, Model: "fake"}
		},
	})
	h.svc = New(Options{
		Store: st, Events: h.hub, Presence: h.hub, Agent: agent, Clock: h.clk, Settings: h.settings, Logger: slog.New(slog.DiscardHandler),
		Busy: func() bool { h.mu.Lock(); defer h.mu.Unlock(); return h.busy },
		CanRespond: func() (bool, string) {
			h.mu.Lock()
			defer h.mu.Unlock()
			return !h.noLLM, "no model"
		},
		RecordUsage: func(_ context.Context, model string, u llm.Usage) {
			h.mu.Lock()
			defer h.mu.Unlock()
			if model == "fake" {
				h.used = append(h.used, u)
			}
		},
	})
}

func (h *harness) settings() Settings {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.set
}

// configure changes the settings and tells the service, as the config watcher does.
func (h *harness) configure(change func(*Settings)) {
	h.mu.Lock()
	change(&h.set)
	h.mu.Unlock()
	h.svc.SettingsChanged()
}

// start starts the service; it is stopped (and the store closed) at the test's end.
func (h *harness) start() {
	if err := h.svc.Start(context.Background()); err != nil {
		h.t.Fatal(err)
	}
	h.t.Cleanup(h.svc.Stop)
}

// restart stops the service and closes the database, as quitting Wisp does, then
// opens both again (after the clock moved on by away) and starts.
func (h *harness) restart(away time.Duration) {
	h.svc.Stop()
	h.st.Close()
	h.clk.Advance(away)
	h.open()
	h.start()
}

// settle waits until the service's loops armed n timers: it is idle until the clock
// moves.
func (h *harness) settle(n int) {
	h.t.Helper()
	if !h.clk.BlockUntil(n, wait) {
		h.t.Fatalf("the service did not settle: %d timers waiting, want %d", h.clk.Waiters(), n)
	}
}

func (h *harness) conversation(title string, updated time.Time) store.Conversation {
	h.t.Helper()
	c := store.Conversation{ID: ids.New(), Title: title, RoomID: ids.New(), CreatedAt: updated, UpdatedAt: updated}
	if err := h.st.CreateConversation(context.Background(), c); err != nil {
		h.t.Fatal(err)
	}
	return c
}

func (h *harness) userSaid(convID, text string, at time.Time) {
	h.t.Helper()
	_, err := h.st.AddMessage(context.Background(), store.Message{ID: ids.New(), ConversationID: convID, Role: "user", Text: text, CreatedAt: at})
	if err != nil {
		h.t.Fatal(err)
	}
}

func (h *harness) messages(convID string) []store.Message {
	h.t.Helper()
	msgs, err := h.st.Messages(context.Background(), convID, 0)
	if err != nil {
		h.t.Fatal(err)
	}
	return msgs
}

func (h *harness) reminder(id string) store.Reminder {
	h.t.Helper()
	r, err := h.st.Reminder(context.Background(), id)
	if err != nil {
		h.t.Fatal(err)
	}
	return r
}

func (h *harness) addReminder(in ReminderInput) wire.Reminder {
	h.t.Helper()
	r, err := h.svc.AddReminder(context.Background(), in)
	if err != nil {
		h.t.Fatal(err)
	}
	return r
}

func minutes(m float64) *float64 { return &m }

func envelope(stream, payload string) wire.Envelope {
	return wire.NewEnvelope(wire.TypeAgentEvent, stream, json.RawMessage(payload))
}

// terminalEvent is a terminal-output frame of run r.
func terminalEvent(r string, ev wire.TerminalEvent, set func(*wire.TerminalOutput)) wire.TerminalOutput {
	f := wire.NewTerminalOutput(r, "", 0, ev)
	if set != nil {
		set(&f)
	}
	return f
}
