package tokens

import (
	"github.com/wispapp/wisp/runtime/llm"
)

// The fixed costs of a chat request's framing, from OpenAI's cookbook "How to count
// tokens with tiktoken" (num_tokens_from_messages): every message is wrapped in
// <|start|>{role}\n{content}<|end|>\n, 3 tokens, and every reply is primed with
// <|start|>assistant<|message|>, 3 tokens. The per-call and per-tool figures are
// this package's own allowance for the JSON framing around a tool call's name and
// arguments and around a tool's definition, rounded up.
const (
	PerMessage  = 3
	ReplyPrimer = 3
	PerToolCall = 8
	PerTool     = 12
)

// Message is the tokens m takes in a request: the framing, its text, its images
// (each as Image counts it: a Counter does not know the provider; ImageTokens does),
// its reasoning, its tool calls' names, ids and arguments, and the id of the call
// it answers.
func Message(c Counter, m llm.Message) int {
	n := PerMessage + c.Count(string(m.Role)) + c.Count(m.Text)
	for _, img := range m.Images {
		n += Image(img)
	}
	for _, t := range m.Thinking {
		n += c.Count(t.Text) + c.Count(t.Redacted)
	}
	for _, call := range m.ToolCalls {
		n += PerToolCall + c.Count(call.ID) + c.Count(call.Name) + c.Count(string(call.Arguments))
	}
	if m.ToolCallID != "" {
		n += c.Count(m.ToolCallID)
	}
	return n
}

// Tool is the tokens a tool's definition takes: its name, description and the JSON
// Schema of its parameters, as sent.
func Tool(c Counter, t llm.Tool) int {
	return PerTool + c.Count(t.Name) + c.Count(t.Description) + c.Count(string(t.Parameters))
}

// Request is the tokens req's prompt takes: the system prompt, every message, every
// tool's definition and the reply's priming. It does not count the reply.
func Request(c Counter, req llm.Request) int {
	n := ReplyPrimer
	if req.System != "" {
		n += PerMessage + 1 + c.Count(req.System)
	}
	for _, m := range req.Messages {
		n += Message(c, m)
	}
	for _, t := range req.Tools {
		n += Tool(c, t)
	}
	return n
}
