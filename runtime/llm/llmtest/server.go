// Package llmtest is a fake language model server for tests and demos. It speaks the
// real wire protocols of both providers Wisp supports: OpenAI's Chat Completions
// (POST /v1/chat/completions, SSE chunks ending in [DONE]) and Anthropic's Messages
// (POST /v1/messages, named SSE events), streamed or not, plus GET /v1/models and
// Ollama's GET /api/tags and POST /api/show. User messages may carry images (OpenAI
// image_url parts with data URLs, Anthropic base64 image blocks), decoded into
// Received.Images; a malformed one is refused with the provider's own error. Replies come from scripted Turns, so
// tests can exercise chunking, tool calls, thinking, error events, cut streams and
// hangs through the official SDKs.
//
// It speaks OpenAI's audio API too (audio.go): POST /v1/audio/speech answers a
// deterministic tone as WAV and POST /v1/audio/transcriptions a scripted text.
//
// The fake counts every request's prompt with package tokens and reports that count
// as the usage's prompt tokens; given a context window (SetWindow) it refuses a
// prompt over it with each provider's real error.
//
// It imports only package llm from Wisp, for the message and tool call types, and
// its tokens package.
package llmtest

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"sync"
	"time"

	"github.com/wispapp/wisp/runtime/llm"
)

// Server is a fake model server on a real listener.
type Server struct {
	URL string // root, e.g. http://127.0.0.1:PORT

	srv    *http.Server
	done   chan struct{} // closed by Close: ends hanging and delayed replies
	served chan struct{} // closed when Serve returned
	active sync.WaitGroup

	mu       sync.Mutex
	closed   bool
	queue    []Turn
	routes   []route
	fallback func(Received) Turn
	requests []Received
	models   []string
	ids      int
	callIDs  CallIDs
	window   int  // context window in tokens; 0: none
	blind    bool // the model does not see images (SetVision(false))

	counts countCache // the token counts of long texts already seen
	audio  audioState // the audio routes' script and record
}

// CallIDs is how the fake names the tool calls it sends.
type CallIDs int

// The ways to name tool calls: as scripted (a missing id made unique), with no id at
// all (some OpenAI-compatible servers send none), or one id for every call (others
// number calls from call_0 again in every step): a model whose ids cannot be trusted.
const (
	CallIDsAsScripted CallIDs = iota
	CallIDsOmitted
	CallIDsRepeated
)

// RepeatedCallID is the id every tool call carries under CallIDsRepeated.
const RepeatedCallID = "call_0"

// SetCallIDs sets how the ids of the tool calls sent from now on are chosen.
func (s *Server) SetCallIDs(ids CallIDs) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.callIDs = ids
}

type route struct {
	match func(Received) bool
	turn  func(Received) Turn
}

// New starts a server on 127.0.0.1 at a free port. It panics if it cannot listen, like
// httptest.NewServer.
func New() *Server {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		panic("llmtest: listen: " + err.Error())
	}
	return Serve(l)
}

// Serve starts a server on l, which it owns from then on. Until scripted, it answers
// every chat request with Echo(0).
func Serve(l net.Listener) *Server {
	s := &Server{
		URL:      "http://" + l.Addr().String(),
		done:     make(chan struct{}),
		served:   make(chan struct{}),
		fallback: Echo(0),
		models:   []string{"fake"},
	}
	s.srv = &http.Server{
		Handler:           s.routesMux(),
		ReadHeaderTimeout: 10 * time.Second,
		ErrorLog:          log.New(io.Discard, "", 0),
	}
	go func() {
		defer close(s.served)
		_ = s.srv.Serve(l)
	}()
	return s
}

// Close stops the server: it drops open connections, ends hanging replies and waits
// for every handler to return. It is safe to call more than once.
func (s *Server) Close() {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return
	}
	s.closed = true
	s.mu.Unlock()
	close(s.done)
	_ = s.srv.Close()
	<-s.served
	s.active.Wait()
}

// OpenAIURL is the base URL for an OpenAI-compatible client: URL + "/v1".
func (s *Server) OpenAIURL() string { return s.URL + "/v1" }

// AnthropicURL is the base URL for an Anthropic client: URL.
func (s *Server) AnthropicURL() string { return s.URL }

// Script queues turns; each chat request that no Handle route matches takes the next.
func (s *Server) Script(turns ...Turn) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.queue = append(s.queue, turns...)
}

// Pending is how many scripted turns are still queued.
func (s *Server) Pending() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.queue)
}

// Handle adds a route checked, in the order added, before the queue: a request that
// match accepts is answered with turn(request) and leaves the queue alone. Use it for
// side requests such as title generation.
func (s *Server) Handle(match func(Received) bool, turn func(Received) Turn) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.routes = append(s.routes, route{match: match, turn: turn})
}

// Fallback sets the responder used when the queue is empty (by default Echo(0)).
func (s *Server) Fallback(turn func(Received) Turn) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.fallback = turn
}

// SetModels sets the model names listed by /v1/models and /api/tags ("fake" by default).
func (s *Server) SetModels(names ...string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.models = append([]string(nil), names...)
}

// Requests returns the chat requests received so far, in order.
func (s *Server) Requests() []Received {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Received(nil), s.requests...)
}

// ForgetRequests drops the requests recorded so far (audio ones too) and the token counts it keeps
// of their texts, so a long test holds no more than the fake model's own state
// (Requests starts again from the next one).
func (s *Server) ForgetRequests() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.requests = nil
	s.audio.speech, s.audio.transcription = nil, nil
	s.counts.mu.Lock()
	s.counts.by, s.counts.bytes = nil, 0
	s.counts.mu.Unlock()
}

// turnFor records r and chooses its turn: a matching route, the queue, or the fallback.
// User functions run without the lock held, so they may call the Server.
func (s *Server) turnFor(r Received) Turn {
	s.mu.Lock()
	s.requests = append(s.requests, r)
	routes := append([]route(nil), s.routes...)
	s.mu.Unlock()

	for _, rt := range routes {
		if rt.match(r) {
			return rt.turn(r)
		}
	}

	s.mu.Lock()
	if len(s.queue) > 0 {
		t := s.queue[0]
		s.queue = s.queue[1:]
		s.mu.Unlock()
		return t
	}
	fallback := s.fallback
	s.mu.Unlock()
	return fallback(r)
}

// nextID numbers response, tool call and message ids.
func (s *Server) nextID() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.ids++
	return s.ids
}

// withIDs fills in missing tool call ids (or leaves them all out, or repeats one, as
// SetCallIDs says) and missing arguments, without touching the caller's turn.
func (s *Server) withIDs(t Turn, prefix string) Turn {
	s.mu.Lock()
	mode := s.callIDs
	s.mu.Unlock()
	calls := make([]llm.ToolCall, len(t.ToolCalls))
	for i, c := range t.ToolCalls {
		switch {
		case mode == CallIDsOmitted:
			c.ID = ""
		case mode == CallIDsRepeated:
			c.ID = RepeatedCallID
		case c.ID == "":
			c.ID = fmt.Sprintf("%sllmtest_%d", prefix, s.nextID())
		}
		if len(c.Arguments) == 0 {
			c.Arguments = json.RawMessage("{}")
		}
		calls[i] = c
	}
	t.ToolCalls = calls
	return t
}

func (s *Server) modelNames() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.models...)
}

// routesMux is the route table.
func (s *Server) routesMux() *http.ServeMux {
	mux := http.NewServeMux()
	mux.Handle("POST /v1/chat/completions", s.handle(s.openAIChat))
	mux.Handle("POST /v1/messages", s.handle(s.anthropicMessages))
	mux.Handle("GET /v1/models", s.handle(s.listModels))
	mux.Handle("GET /api/tags", s.handle(s.ollamaTags))
	mux.Handle("POST /api/show", s.handle(s.ollamaShow))
	mux.Handle("POST /v1/audio/speech", s.handle(s.audioSpeech))
	mux.Handle("POST /v1/audio/transcriptions", s.handle(s.audioTranscriptions))
	return mux
}

// errCut asks the adapter to drop the connection without ending the response.
var errCut = errors.New("llmtest: cut the connection")

// handle adapts a handler: it tracks it for Close, and turns errCut into an aborted
// connection (the client sees the body end without its terminating chunk).
func (s *Server) handle(h func(w http.ResponseWriter, r *http.Request) error) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		if s.closed {
			s.mu.Unlock()
			http.Error(w, "llmtest: server closed", http.StatusServiceUnavailable)
			return
		}
		s.active.Add(1)
		s.mu.Unlock()
		defer s.active.Done()

		if err := h(w, r); errors.Is(err, errCut) {
			panic(http.ErrAbortHandler)
		}
	})
}
