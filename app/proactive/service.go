// Package proactive is Wisp speaking first: reminders the user set for a time, the
// opt-in autonomy loop, and notices about long terminal runs. Each ends as a
// proactive message, which the Router saves into the right conversation (with its
// unread mark and, for a reminder, its delivery record, in one transaction) and
// publishes to the wire.Events sink.
//
// It knows the store, the agent and the frame catalog, not HTTP, the hub or chat:
// which conversations clients show comes through Presence. Time comes from an
// injected clock.Clock, so tests never sleep until a time comes.
package proactive

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"github.com/wispapp/wisp/app/store"
	"github.com/wispapp/wisp/app/wire"
	"github.com/wispapp/wisp/internal/clock"
	"github.com/wispapp/wisp/runtime"
	"github.com/wispapp/wisp/runtime/llm"
)

// Presence says which conversations the connected clients show.
type Presence interface {
	// ActiveConversation is the conversation a client most recently opened.
	ActiveConversation() (string, bool)
	// Showing reports whether a connected client has the conversation open.
	Showing(conversationID string) bool
}

// Settings are the live settings the package follows (read on every use).
type Settings struct {
	AutonomyEnabled bool
	Interval        time.Duration // already clamped
	MaxPerHour      int
	Cooldown        time.Duration
	NotifyLongRuns  bool
}

// Options are what the service needs.
type Options struct {
	Store *store.Store
	// Events takes the frames and envelopes the service publishes.
	Events   wire.Events
	Presence Presence
	Agent    *runtime.Agent
	Settings func() Settings
	// CanRespond says whether a model is usable now, and if not, why.
	CanRespond func() (bool, string)
	// Busy says whether a reply is being written (autonomy waits for it).
	Busy   func() bool
	Clock  clock.Clock // default the system clock
	Logger *slog.Logger
	// RecordUsage records what an autonomy tick's model call cost (app/usage); nil
	// records nothing.
	RecordUsage func(ctx context.Context, model string, u llm.Usage)
}

// Service runs reminders, the autonomy loop and terminal notices.
type Service struct {
	opts     Options
	log      *slog.Logger
	router   *Router
	schedule *scheduler
	autonomy *autonomy
	activity *activity
	terminal *terminalWatch

	base   context.Context // the loops' context: Stop cancels it
	cancel context.CancelFunc

	mu       sync.Mutex
	stopped  bool           // no more background work is started
	bg       sync.WaitGroup // deliveries started from callbacks that must not block
	stopOnce sync.Once
}

// deliveryTimeout bounds a background delivery (a few SQLite statements).
const deliveryTimeout = 10 * time.Second

// New builds the service; Start starts its loops.
func New(opts Options) *Service {
	if opts.Clock == nil {
		opts.Clock = clock.System{}
	}
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	if opts.Busy == nil {
		opts.Busy = func() bool { return false }
	}
	if opts.CanRespond == nil {
		opts.CanRespond = func() (bool, string) { return true, "" }
	}
	base, cancel := context.WithCancel(context.Background())
	s := &Service{opts: opts, log: opts.Logger, base: base, cancel: cancel, activity: newActivity(opts.Clock)}
	s.router = &Router{store: opts.Store, events: opts.Events, presence: opts.Presence, clock: opts.Clock, log: opts.Logger}
	s.schedule = newScheduler(s)
	s.autonomy = newAutonomy(s)
	s.terminal = newTerminalWatch(s)
	return s
}

// Start starts the scheduler (which first delivers the reminders that came due
// while Wisp was closed) and the autonomy loop. They run until Stop.
func (s *Service) Start(context.Context) error {
	s.schedule.start()
	s.autonomy.start()
	return nil
}

// Stop ends the loops (a tick's model call is cancelled) and waits for the
// deliveries under way, which finish: a notice is not lost to a shutdown. It may be
// called more than once.
func (s *Service) Stop() {
	s.stopOnce.Do(func() {
		s.cancel()
		s.schedule.stop()
		s.autonomy.stop()
		s.mu.Lock()
		s.stopped = true
		s.mu.Unlock()
		s.bg.Wait()
	})
}

// SettingsChanged wakes the autonomy loop so a new interval or switch applies now.
func (s *Service) SettingsChanged() { s.autonomy.wake() }

// background runs fn in a goroutine Stop waits for; after Stop it is dropped.
func (s *Service) background(what string, fn func(ctx context.Context)) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.stopped {
		s.log.Warn("proactive service stopped: dropped", "what", what)
		return
	}
	s.bg.Add(1)
	go func() {
		defer s.bg.Done()
		ctx, cancel := context.WithTimeout(context.Background(), deliveryTimeout)
		defer cancel()
		fn(ctx)
	}()
}

// goDeliver delivers a note in the background, for callers that must not block.
func (s *Service) goDeliver(n Note) {
	s.background("proactive message", func(ctx context.Context) {
		if _, err := s.router.Deliver(ctx, n); err != nil {
			s.log.Warn("proactive message not delivered", "source", n.Source, "err", err)
		}
	})
}

// MarkRead clears a conversation's unread mark, telling every client when it was
// set. It does not block: the hub calls it from a socket's read loop.
func (s *Service) MarkRead(conversationID string) {
	if conversationID == "" {
		return
	}
	s.background("mark read", func(ctx context.Context) { s.router.markRead(ctx, conversationID) })
}
