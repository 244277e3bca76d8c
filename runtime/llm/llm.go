// Package llm is Wisp's boundary with language models: one Provider interface for a
// streaming chat turn with tools and reasoning, and two implementations: OpenAI-compatible
// (OpenAI, Ollama, LM Studio, llama.cpp server, OpenRouter), whose requests are built
// with the official SDK's types but sent and read with net/http and encoding/json (the
// SDK's own stream decoding cost more CPU than the rest of a token's path), and
// Anthropic (with extended thinking) on its official SDK. A user message may show
// images, sent before its text as each provider's own image blocks; ImageLimitsFor
// says what to fit them to and SeesImages whether the model sees them.
//
// It imports nothing from the rest of Wisp. Provider errors are returned as *Error so
// callers can show a clear message without knowing which SDK produced them.
package llm

import (
	"context"
	"encoding/json"
)

// Role says who wrote a message.
type Role string

// The roles a conversation carries.
const (
	RoleUser      Role = "user"
	RoleAssistant Role = "assistant"
	RoleTool      Role = "tool" // the result of one tool call, answering ToolCallID
)

// ToolCall is the model asking for one action.
type ToolCall struct {
	// ID is the provider's id of the call, sent back to the model with its result
	// only: a provider may send none or repeat one ("call_0" in every step).
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments"` // a JSON object; "{}" when the model sent none
	// WispID is Wisp's own id of the call, made when the model asked for it and
	// unique for good: the run's events, approvals and resumes name the call by it.
	WispID string `json:"wispId,omitempty"`
}

// Key is the id Wisp knows the call by: its WispID (a call logged before Wisp made
// its own ids has only the provider's).
func (c ToolCall) Key() string {
	if c.WispID != "" {
		return c.WispID
	}
	return c.ID
}

// Thinking is one reasoning block. Anthropic needs it sent back verbatim (with its
// signature) when a turn continues after a tool call.
type Thinking struct {
	Text      string `json:"text"`
	Signature string `json:"signature,omitempty"`
	Redacted  string `json:"redacted,omitempty"` // opaque data of a redacted_thinking block
}

// Message is one entry of the context sent to the model.
type Message struct {
	Role       Role       `json:"role"`
	Text       string     `json:"text,omitempty"`
	Thinking   []Thinking `json:"thinking,omitempty"`   // assistant only
	ToolCalls  []ToolCall `json:"toolCalls,omitempty"`  // assistant only
	ToolCallID string     `json:"toolCallId,omitempty"` // tool only
	IsError    bool       `json:"isError,omitempty"`    // tool only: the action failed and Text says why
	// Images are seen by the model before Text (user only), each as the provider's
	// own image block. Their bytes are already within the provider's ImageLimits.
	Images []Image `json:"images,omitempty"`
}

// Image is a picture a user message shows the model.
type Image struct {
	MIME   string `json:"mime"` // image/png, image/jpeg, image/gif or image/webp
	Data   []byte `json:"data"`
	Width  int    `json:"width"`
	Height int    `json:"height"`
}

// Tool is an action the model may call.
type Tool struct {
	Name        string
	Description string
	Parameters  json.RawMessage // a JSON Schema object
}

// Request is one streaming chat turn.
type Request struct {
	Model       string
	System      string
	Messages    []Message
	Tools       []Tool
	Temperature *float64 // nil: the provider's default
	MaxTokens   int      // 0: the provider's default
	// ThinkingBudget enables Anthropic extended thinking with this many tokens (>= 1024);
	// 0 disables it. OpenAI-compatible servers stream their reasoning when they have any.
	ThinkingBudget int
}

// DeltaKind says what a Delta carries.
type DeltaKind int

// The kinds of streamed pieces.
const (
	DeltaText     DeltaKind = iota + 1 // Text is more of the visible answer
	DeltaThinking                      // Text is more of the model's reasoning
	DeltaToolCall                      // ToolCall is complete (arguments fully received)
)

// Delta is one streamed piece of a turn, in the order the model produced it.
type Delta struct {
	Kind     DeltaKind
	Text     string
	ToolCall *ToolCall
}

// Usage counts the tokens of one model call, as the provider reported them.
type Usage struct {
	// InputTokens is the whole prompt, cache reads and writes included.
	InputTokens  int `json:"inputTokens"`
	OutputTokens int `json:"outputTokens"`
	// CacheReadTokens is the part of the prompt read from the provider's prompt
	// cache (OpenAI's cached_tokens, Anthropic's cache_read_input_tokens).
	CacheReadTokens int `json:"cacheReadTokens"`
	// CacheWriteTokens is the part written to it (Anthropic's
	// cache_creation_input_tokens); OpenAI reports none.
	CacheWriteTokens int `json:"cacheWriteTokens"`
}

// Add is the sum of two usages: the usage of a turn's steps together.
func (u Usage) Add(o Usage) Usage {
	return Usage{
		InputTokens:      u.InputTokens + o.InputTokens,
		OutputTokens:     u.OutputTokens + o.OutputTokens,
		CacheReadTokens:  u.CacheReadTokens + o.CacheReadTokens,
		CacheWriteTokens: u.CacheWriteTokens + o.CacheWriteTokens,
	}
}

// MaxReportedTokens bounds a token count a provider reports: a number above it (or
// below zero) is taken as garbage and read as 0.
const MaxReportedTokens = 100_000_000

// reported is a provider's token count made sane.
func reported(n int64) int {
	if n < 0 || n > MaxReportedTokens {
		return 0
	}
	return int(n)
}

// Response is a finished turn: everything the deltas carried, assembled.
type Response struct {
	Text       string
	Thinking   []Thinking
	ToolCalls  []ToolCall
	Usage      Usage
	StopReason string // "end_turn", "tool_use", "max_tokens", ... (normalised to Anthropic's words)
}

// Provider streams one chat turn. Stream calls onDelta from the calling goroutine, in
// order, and returns when the turn is complete, the context is cancelled, or the
// provider fails. Failures are *Error. A stream that ends without its terminating
// event is an error (KindStream), never a silent short answer.
type Provider interface {
	Name() string // "openai", "anthropic" or "ollama"
	Stream(ctx context.Context, req Request, onDelta func(Delta)) (Response, error)
}
