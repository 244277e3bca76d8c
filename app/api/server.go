// Package api owns Wisp's local HTTP API: the route table, the middleware chain
// (request log and panic recovery, Host/Origin/CORS protection, token check, JSON body
// rules) and one file of handlers per area. It serves the embedded UI at / and hands
// /ws to the hub.
//
// It does not touch SQLite or the runtime directly: the app passes in what it needs,
// each service behind a narrow interface whose methods take the request's context
// (declared beside the handlers that use it, or in services.go), which the services
// implement themselves and the tests fake (fakes_test.go).
// It is the one place that maps a service's fault kind to an HTTP status (errors.go).
package api

import (
	"io/fs"
	"log/slog"
	"net/http"
	"strings"

	"github.com/wispapp/wisp/app/wire"
)

// Options are the services the API serves.
type Options struct {
	Guard *Guard
	// Hub serves /ws and publishes agent events; nil leaves /ws out.
	Hub    Hub
	Status func() wire.Status
	UI     fs.FS // the built frontend (index.html at its root)
	Logger *slog.Logger
	Chat   Chat
	// Conversations serves the history, search and run state; nil leaves their routes out.
	Conversations Conversations
	// Context serves the context meter and the summaries; nil leaves their routes out.
	Context Context
	// Providers reads and changes the model settings (the setup screen).
	Providers Providers
	// CanRespond says whether a model is usable, and if not, why.
	CanRespond func() (bool, string)
	// Terminal serves the shell runs; nil leaves their routes out.
	Terminal *Terminal
	// Emotes serves the avatar and its emotes; nil leaves their routes out.
	Emotes Emotes
	// Settings reads and changes the config; nil leaves their routes out.
	Settings Settings
	// Restarter restarts the services; nil leaves its route out.
	Restarter Restarter
	// Proactive serves reminders and the autonomy switch; nil leaves their routes out.
	Proactive Proactive
	// Approvals serves shell approvals and grants; nil leaves their routes out.
	Approvals Approvals
	// MCP serves the MCP servers' routes; nil leaves them out.
	MCP MCP
	// Archive exports and imports conversations; nil leaves their routes out.
	Archive Archive
	// Memory serves the user's memory; nil leaves its routes out.
	Memory Memory
	// Usage answers what the model calls cost; nil leaves its routes out.
	Usage Usage
	// Attachments stores and serves attached files; nil leaves their routes out.
	Attachments Attachments
	// Voice speaks and listens (docs/voice.md); nil leaves its routes out.
	Voice Voice
	// Avatar stores and serves the user's VRM character; nil leaves its routes out.
	Avatar Avatar
	// Expressions sets the avatar's expression; nil leaves its route out.
	Expressions Expressions
	// Edits lists and undoes the agent's file edits; nil leaves their routes out.
	Edits Edits
	// Tasks serves the scheduled tasks; nil leaves their routes out.
	Tasks Tasks
}

// Server is the HTTP API.
type Server struct {
	guard  *Guard
	hub    Hub
	status func() wire.Status
	ui     http.Handler
	log    *slog.Logger

	chat          Chat
	conversations Conversations
	context       Context
	providers     Providers
	canRespond    func() (bool, string)
	term          *Terminal
	emotes        Emotes
	settings      Settings
	restarter     Restarter
	proactive     Proactive
	approvals     Approvals
	mcp           MCP
	archive       Archive
	memory        Memory
	usage         Usage
	attachments   Attachments
	voice         Voice
	avatar        Avatar
	expressions   Expressions
	edits         Edits
	tasks         Tasks
}

// New builds the API server.
func New(o Options) *Server {
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
	if o.CanRespond == nil {
		o.CanRespond = func() (bool, string) { return false, "no model is configured" }
	}
	return &Server{
		guard: o.Guard, hub: o.Hub, status: o.Status, ui: newUIHandler(o.UI), log: o.Logger,
		chat: o.Chat, conversations: o.Conversations, providers: o.Providers, canRespond: o.CanRespond, term: o.Terminal,
		emotes: o.Emotes, settings: o.Settings, restarter: o.Restarter, proactive: o.Proactive, approvals: o.Approvals, mcp: o.MCP,
		archive: o.Archive, memory: o.Memory, usage: o.Usage, context: o.Context, attachments: o.Attachments,
		voice: o.Voice, avatar: o.Avatar, expressions: o.Expressions, edits: o.Edits, tasks: o.Tasks,
	}
}

// Handler returns the whole API behind its middleware chain.
func (s *Server) Handler() http.Handler {
	mux := http.NewServeMux()
	s.routes(mux)
	return s.observe(s.protect(jsonFallback(mux)))
}

// routes is the one route table.
func (s *Server) routes(mux *http.ServeMux) {
	mux.Handle("GET /api/health", s.public(s.health))
	mux.Handle("GET /api/status", s.handle(s.getStatus))
	mux.Handle("POST /api/agent/event", s.handle(s.postAgentEvent))
	mux.Handle("POST /api/ui/ready", s.handle(s.postUIReady))
	mux.Handle("POST /api/ui/report", s.handle(s.postUIReport))
	if s.chat != nil {
		s.chatRoutes(mux)
	}
	if s.conversations != nil {
		s.conversationRoutes(mux)
	}
	if s.archive != nil {
		s.archiveRoutes(mux)
	}
	if s.usage != nil {
		s.usageRoutes(mux)
	}
	if s.attachments != nil {
		s.attachmentRoutes(mux)
	}
	if s.voice != nil {
		s.voiceRoutes(mux)
	}
	if s.term != nil {
		mux.Handle("POST /api/terminal/run", s.handle(s.runTerminal))
		mux.Handle("GET /api/terminal/runs", s.handle(s.listTerminalRuns))
		mux.Handle("GET /api/terminal/runs/{id}", s.handle(s.getTerminalRun))
		mux.Handle("POST /api/terminal/runs/{id}/kill", s.handle(s.killTerminalRun))
	}
	if s.emotes != nil {
		s.emoteRoutes(mux)
	}
	if s.avatar != nil {
		s.avatarRoutes(mux)
	}
	if s.expressions != nil {
		s.expressionRoutes(mux)
	}
	if s.settings != nil {
		mux.Handle("GET /api/config", s.handle(s.getConfig))
		mux.Handle("PUT /api/config", s.handle(s.putConfig))
		mux.Handle("PUT /api/permissions/shell", s.handle(s.putShell))
	}
	if s.restarter != nil {
		mux.Handle("POST /api/agent/restart", s.handle(s.postRestart))
	}
	if s.proactive != nil {
		mux.Handle("GET /api/reminders", s.handle(s.listReminders))
		mux.Handle("POST /api/reminders", s.handle(s.createReminder))
		mux.Handle("DELETE /api/reminders/{id}", s.handle(s.deleteReminder))
		mux.Handle("GET /api/agent/autonomy", s.handle(s.getAutonomy))
		mux.Handle("POST /api/agent/autonomy", s.handle(s.postAutonomy))
	}
	if s.mcp != nil {
		s.mcpRoutes(mux)
	}
	if s.approvals != nil {
		s.approvalRoutes(mux)
	}
	if s.memory != nil {
		s.memoryRoutes(mux)
	}
	if s.tasks != nil {
		s.taskRoutes(mux)
	}
	if s.providers != nil {
		mux.Handle("GET /api/provider", s.handle(s.getProvider))
		mux.Handle("PUT /api/provider", s.handle(s.putProvider))
	}
	if s.hub != nil {
		mux.Handle("GET /ws", s.public(s.hub.Handle)) // the hub authenticates sockets itself
	}
	if s.context != nil {
		s.routeContext(mux)
	}
	if s.edits != nil {
		s.editRoutes(mux)
	}
	s.fallbackRoutes(mux)
}

// conversationRoutes are the history, its search and the runs' state.
func (s *Server) conversationRoutes(mux *http.ServeMux) {
	mux.Handle("GET /api/conversations", s.handle(s.listConversations))
	mux.Handle("POST /api/conversations", s.handle(s.createConversation))
	mux.Handle("GET /api/conversations/{id}", s.handle(s.getConversation))
	mux.Handle("PATCH /api/conversations/{id}", s.handle(s.patchConversation))
	mux.Handle("DELETE /api/conversations/{id}", s.handle(s.deleteConversation))
	mux.Handle("GET /api/conversations/{id}/messages", s.handle(s.listMessages))
	mux.Handle("PUT /api/conversations/{id}/branch", s.handle(s.putBranch))
	mux.Handle("GET /api/conversations/{id}/snapshot", s.handle(s.getSnapshot))
	mux.Handle("POST /api/conversations/{id}/messages/truncate", s.handle(s.truncateMessages))
	mux.Handle("GET /api/conversations/{id}/display-messages", s.handle(s.listDisplayMessages))
	mux.Handle("GET /api/search", s.handle(s.search))
	mux.Handle("GET /api/runs/{id}/state", s.handle(s.getRunState))
}

// chatRoutes are the message, run and Anthropic- and OpenAI-compatible routes.
func (s *Server) chatRoutes(mux *http.ServeMux) {
	mux.Handle("POST /api/conversations/{id}/messages", s.handle(s.sendMessage))
	mux.Handle("POST /api/conversations/{id}/messages/stream", s.handle(s.streamMessage))
	mux.Handle("POST /api/conversations/{id}/messages/{messageId}/edit", s.handle(s.editMessage))
	mux.Handle("POST /api/conversations/{id}/messages/{messageId}/regenerate", s.handle(s.regenerateMessage))
	mux.Handle("GET /api/runs/{id}", s.handle(s.getRun))
	mux.Handle("GET /api/runs/{id}/stream", s.handle(s.resumeRun))
	mux.Handle("GET /api/runs/{id}/chunks", s.handle(s.runChunks))
	mux.Handle("POST /api/runs/{id}/cancel", s.handle(s.cancelRun))
	mux.Handle("POST /api/chat", s.handle(s.chat003))
	mux.Handle("POST /v1/messages", withBodyLimit(V1MaxBodyBytes, s.v1Handle(s.v1Messages)))
	mux.Handle("GET /v1/models", s.v1Handle(s.v1Models))
	mux.Handle("GET /v1/models/{id}", s.v1Handle(s.v1Model))
	mux.Handle("POST /v1/chat/completions", withBodyLimit(V1MaxBodyBytes, s.oaiHandle(s.chatCompletions)))
}

// jsonFallback turns the mux's own plain-text 404 and 405 answers into JSON errors.
func jsonFallback(mux *http.ServeMux) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h, pattern := mux.Handler(r)
		if pattern != "" {
			mux.ServeHTTP(w, r) // (not h: only the mux sets the path values)
			return
		}
		probe := &headerProbe{header: http.Header{}}
		h.ServeHTTP(probe, r)
		if allow := probe.header.Get("Allow"); allow != "" {
			w.Header().Set("Allow", allow)
		}
		msg := "no such endpoint"
		if probe.status == http.StatusMethodNotAllowed {
			msg = "method not allowed"
		}
		writeJSON(w, probe.status, map[string]string{"error": msg})
	})
}

// headerProbe captures the status and headers of the mux's fallback handler.
type headerProbe struct {
	header http.Header
	status int
}

func (p *headerProbe) Header() http.Header         { return p.header }
func (p *headerProbe) Write(b []byte) (int, error) { return len(b), nil }
func (p *headerProbe) WriteHeader(code int)        { p.status = code }

func isAPIPath(p string) bool {
	return p == "/ws" || strings.HasPrefix(p, "/api/")
}
