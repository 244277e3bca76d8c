package archive

import (
	"log/slog"
	"time"

	"github.com/wispapp/wisp/app/store"
	"github.com/wispapp/wisp/app/wire"
)

// Options are what the service needs.
type Options struct {
	Store *store.Store
	// Events takes the conversation-updated frame of each conversation imported.
	Events wire.Events
	Logger *slog.Logger
	// Now is the export's time (default time.Now).
	Now func() time.Time
	// AgentName is what a Markdown export calls the assistant (default "Assistant").
	AgentName func() string
	// Blobs are the attachments' bytes; nil: exports carry none, and an import of a
	// file with attachments is refused.
	Blobs Blobs
	// TempDir holds a zip being imported (default os.TempDir(); the state folder's
	// is better: a zip may be big, and /tmp is often memory).
	TempDir string
}

// Service exports and imports conversations.
type Service struct {
	store   *store.Store
	events  wire.Events
	log     *slog.Logger
	now     func() time.Time
	agent   func() string
	blobs   Blobs
	tempDir string
}

// New builds the service.
func New(o Options) *Service {
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.AgentName == nil {
		o.AgentName = func() string { return "" }
	}
	return &Service{store: o.Store, events: o.Events, log: o.Logger, now: o.Now, agent: o.AgentName, blobs: o.Blobs, tempDir: o.TempDir}
}

// agentName is the assistant's name for Markdown.
func (s *Service) agentName() string {
	if name := s.agent(); name != "" {
		return name
	}
	return "Assistant"
}
