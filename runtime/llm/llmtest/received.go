package llmtest

import (
	"encoding/json"
	"net/http"

	"github.com/wispapp/wisp/runtime/llm"
)

// The protocols a Received request came in.
const (
	ProtocolOpenAI    = "openai"
	ProtocolAnthropic = "anthropic"
)

// Received is one chat request as the server understood it, decoded back from the wire
// into llm types so tests can assert what a provider sent.
type Received struct {
	Protocol string // ProtocolOpenAI or ProtocolAnthropic
	Model    string
	System   string
	// Messages are the conversation: OpenAI tool messages and Anthropic tool_result
	// blocks become RoleTool messages; Anthropic thinking blocks become Thinking;
	// images become the user message's Images, with the type and size read from
	// their bytes.
	Messages []llm.Message
	// Images are the images of the last user message, in order, decoded from the
	// wire; ImageCount counts those of every message of the request (a history's
	// images are sent again with every turn).
	Images         []ReceivedImage
	ImageCount     int
	Tools          []string // tool names, in order
	Stream         bool
	MaxTokens      int      // max_tokens, or max_completion_tokens (OpenAI)
	Temperature    *float64 // nil when not sent
	ThinkingBudget int      // Anthropic's thinking.budget_tokens; 0 when off
	Header         http.Header
	Body           json.RawMessage // the request body as sent
	// Tokens is the prompt's size as the fake counts it: tokens.Request of
	// Request() with the model's counter. It is the prompt tokens the reply reports.
	Tokens int
	// Over says Tokens exceeded the window set with SetWindow: the request was
	// answered with the provider's "context too long" error and took no turn.
	Over bool

	toolDefs []llm.Tool // the tools with their descriptions and schemas
}

// Request is the request as an llm.Request: what Wisp's provider would have been
// given to send these bytes (the tools with their schemas).
func (r Received) Request() llm.Request {
	return llm.Request{
		Model: r.Model, System: r.System, Messages: r.Messages, Tools: r.toolDefs,
		Temperature: r.Temperature, MaxTokens: r.MaxTokens, ThinkingBudget: r.ThinkingBudget,
	}
}

// LastUserText is the text of the last user message, or "".
func (r Received) LastUserText() string {
	m, _ := r.lastUser()
	return m.Text
}

// ToolResult is the text of the conversation's last message when it is a tool's
// result (the model is asked to go on after a call), and whether it is one.
func (r Received) ToolResult() (string, bool) {
	if n := len(r.Messages); n > 0 && r.Messages[n-1].Role == llm.RoleTool {
		return r.Messages[n-1].Text, true
	}
	return "", false
}

// rawArguments keeps tool arguments as JSON: valid JSON as is, anything else as a
// JSON string.
func rawArguments(s string) json.RawMessage {
	if s == "" {
		return json.RawMessage("{}")
	}
	if json.Valid([]byte(s)) {
		return json.RawMessage(s)
	}
	quoted, _ := json.Marshal(s)
	return quoted
}
