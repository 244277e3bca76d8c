package llmtest

import (
	"sync"

	"github.com/wispapp/wisp/runtime/llm/tokens"
)

// SetWindow gives the fake model a context window of n tokens (0: none). A chat
// request whose prompt the fake counts above n is answered with the provider's own
// "context too long" error (OpenAI's context_length_exceeded, Anthropic's "prompt is
// too long"), is recorded with Over set, and takes no turn. The models listed by
// GET /v1/models carry context_length, and Ollama's POST /api/show reports it as
// the model's context length and num_ctx.
//
// The fake counts the prompt only, as the error messages it imitates do; the room
// a client asks for its reply (max_tokens) is not added.
func (s *Server) SetWindow(n int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.window = max(0, n)
}

// Window is the context window set with SetWindow, 0 when none.
func (s *Server) Window() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.window
}

// measure counts r's prompt with the counter of its model and says whether it is
// over the window. An over-window request is recorded here, since it takes no turn.
func (s *Server) measure(r Received) Received {
	r.Tokens = tokens.Request(s.counts.counter(r.Model), r.Request())
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.window > 0 && r.Tokens > s.window {
		r.Over = true
		s.requests = append(s.requests, r)
	}
	return r
}

// countCache remembers the counts of long texts: a conversation sends its history
// again with every request, and counting it again each time would make a long test
// quadratic in tokenizer time. It holds at most maxCachedBytes of text, and starts
// again when full.
type countCache struct {
	mu    sync.Mutex
	by    map[cacheKey]int
	bytes int
}

type cacheKey struct{ encoding, text string }

const (
	minCachedText  = 256
	maxCachedBytes = 16 << 20
)

// counter is model's counter, remembering through c.
func (c *countCache) counter(model string) tokens.Counter {
	return cachedCounter{tokens.For(model), c}
}

type cachedCounter struct {
	tokens.Counter
	cache *countCache
}

func (cc cachedCounter) Count(text string) int {
	if len(text) < minCachedText {
		return cc.Counter.Count(text)
	}
	key := cacheKey{cc.Name(), text}
	c := cc.cache
	c.mu.Lock()
	n, ok := c.by[key]
	c.mu.Unlock()
	if ok {
		return n
	}
	n = cc.Counter.Count(text)
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.by == nil || c.bytes+len(text) > maxCachedBytes {
		c.by, c.bytes = map[cacheKey]int{}, 0
	}
	if len(text) <= maxCachedBytes {
		c.by[key] = n
		c.bytes += len(text)
	}
	return n
}
