package chat

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"github.com/wispapp/wisp/app/store"
	"github.com/wispapp/wisp/app/wire"
	"github.com/wispapp/wisp/runtime"
	"github.com/wispapp/wisp/runtime/llm"
)

// Agent is what chat needs of the agent runtime (*runtime.Agent).
type Agent interface {
	Turn(ctx context.Context, in runtime.Input, emit runtime.Emit) (runtime.Result, error)
	Resume(ctx context.Context, in runtime.ResumeInput, emit runtime.Emit) (runtime.Result, error)
	Title(ctx context.Context, userText, replyText string) (string, llm.Usage)
	Settings() runtime.Settings
}

var _ Agent = (*runtime.Agent)(nil)

// Options are what the service needs.
type Options struct {
	Store *store.Store
	Agent Agent
	// Events takes the frames chat publishes for /ws (conversation-updated,
	// display-message-*, heartbeat_event).
	Events wire.Events
	Logger *slog.Logger
	// CanRespond says whether a model is usable now, and if not, why.
	CanRespond func() (bool, string)
	// NoTitles turns off automatic titles (tests that script every model request).
	NoTitles bool
	// Window is the model's context window and where it comes from (WindowProvider,
	// WindowConfig, WindowDefault); it must answer at once (the app caches the
	// provider's answer). Nil or 0: DefaultWindow.
	Window func(ctx context.Context) (int, string)
	// SummarizeAt is the percent of the budget at which older messages are
	// summarised (50–95; nil or out of range: DefaultSummarizeAt).
	SummarizeAt func() int
	// Counter is the token counter for a model (nil: an estimate of bytes / 3).
	Counter func(model string) Counter
	// RecordUsage records what a model call group cost (app/usage); nil records
	// nothing. It must not block for long, and never fails a reply.
	RecordUsage func(ctx context.Context, e UsageEntry)
	// Attachments checks a message's attachments and fits its images (app/attach);
	// nil: a message with attachments is refused, and /v1 images too.
	Attachments Attachments
	// Documents reads the text of PDF and text attachments (app/docs); nil: they
	// are only named to the model.
	Documents Documents
	// Vision says whether the model sees images now; it must answer at once (the
	// app caches the provider's answer). Nil: unknown, and images are sent.
	Vision func(ctx context.Context) llm.Vision
	// ImageLimits are the live provider's limits for an image (nil: zero limits).
	ImageLimits func() llm.ImageLimits
	// Speak, read at a run's start, says whether the run cuts its reply into clauses
	// to speak (speech events, speech.go); nil: never.
	Speak func() bool
	// Replied, when set, is told of every reply that ended well, just before its end
	// is published: the app sets the avatar's expression from its tone. It must not
	// block.
	Replied func(r Reply)
}

// Reply is a run's reply as Options.Replied gets it.
type Reply struct {
	RunID, ConversationID, Text string
}

// Service runs chat.
type Service struct {
	opts   Options
	store  *store.Store
	agent  Agent
	events wire.Events
	log    *slog.Logger
	writer *logWriter

	base   context.Context
	cancel context.CancelCauseFunc

	mu      sync.Mutex
	active  map[string][]*Run // live runs by conversation id, oldest first
	byID    map[string]*Run   // by run id
	stopped bool
	runs    sync.WaitGroup // run goroutines
	bg      sync.WaitGroup // title generation, compacting logs left from before

	stopOnce sync.Once
	calib    calibrations
	memo     memo
	hints    walkHints
}

// errShutdown is why runs stop when Wisp closes: an action that waits for the user
// tells it from a stop by it (runtime.ErrShutdown) and leaves its wait to resume.
var errShutdown = runtime.ErrShutdown

// New builds the service; Start must be called before use.
func New(opts Options) *Service {
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	if opts.CanRespond == nil {
		opts.CanRespond = func() (bool, string) { return true, "" }
	}
	base, cancel := context.WithCancelCause(context.Background())
	return &Service{
		opts: opts, store: opts.Store, agent: opts.Agent, events: opts.Events, log: opts.Logger,
		base: base, cancel: cancel, active: map[string][]*Run{}, byID: map[string]*Run{},
	}
}

// Start closes out runs a previous process left active and starts the run log writer.
func (s *Service) Start(ctx context.Context) error {
	if err := s.recover(ctx); err != nil {
		return err
	}
	// A summary streaming when the last process ended failed (its run was closed
	// above); the next turn that needs one makes a new one.
	left, err := s.store.FailStreamingSummaries(ctx, "the summary failed: Wisp stopped before it finished")
	if err != nil {
		return err
	}
	for _, m := range left {
		s.publishSummary(m)
	}
	s.writer = newLogWriter(s.store, s.log)
	s.compactBacklog()
	return nil
}

// Stop interrupts active runs (their partial replies are saved), waits for them and
// for background work, and flushes the run log.
func (s *Service) Stop() {
	s.stopOnce.Do(s.stop)
}

func (s *Service) stop() {
	s.mu.Lock()
	s.stopped = true
	for _, run := range s.byID {
		if run.adopted { // paused since before this start: still paused, readers go
			run.closeReaders()
		}
	}
	s.mu.Unlock()
	s.cancel(errShutdown)
	waitTimeout(&s.runs, 15*time.Second)
	waitTimeout(&s.bg, 5*time.Second)
	if s.writer != nil {
		s.writer.close()
	}
}

func waitTimeout(wg *sync.WaitGroup, d time.Duration) {
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(d):
	}
}

// AgentName is the character's current name.
func (s *Service) AgentName() string { return s.agent.Settings().Character.Name }

// Busy reports whether a reply is being written in any conversation.
func (s *Service) Busy() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.active) > 0
}
