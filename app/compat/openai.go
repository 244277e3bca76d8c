package compat

import (
	"encoding/json"
	"errors"
	"net/http"
	"strings"

	"github.com/wispapp/wisp/runtime/llm"
)

// OpenAI's chat completions: its request, its answer, streamed or not, and its errors.
// A client's system (or developer) messages are not used: Wisp answers as its
// character.

// OpenAIContent is a message's content: a string or text parts.
type OpenAIContent string

// UnmarshalJSON reads a string or a list of text parts.
func (c *OpenAIContent) UnmarshalJSON(b []byte) error {
	var s string
	if json.Unmarshal(b, &s) == nil {
		*c = OpenAIContent(s)
		return nil
	}
	var parts []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	if err := json.Unmarshal(b, &parts); err != nil {
		return errors.New("content must be a string or a list of text parts")
	}
	var out strings.Builder
	for _, p := range parts {
		if p.Type != "text" {
			return errorf(http.StatusBadRequest, "invalid_request_error", "content parts of type %q are not supported", p.Type)
		}
		out.WriteString(p.Text)
	}
	*c = OpenAIContent(out.String())
	return nil
}

// OpenAIMessage is one message of a request.
type OpenAIMessage struct {
	Role    string        `json:"role"`
	Content OpenAIContent `json:"content"`
}

// OpenAIRequest is a POST /v1/chat/completions body.
type OpenAIRequest struct {
	Model               string          `json:"model"`
	Messages            []OpenAIMessage `json:"messages"`
	Stream              bool            `json:"stream"`
	MaxTokens           int             `json:"max_tokens"`
	MaxCompletionTokens int             `json:"max_completion_tokens"`
	StreamOptions       struct {
		IncludeUsage bool `json:"include_usage"`
	} `json:"stream_options"`
}

// Turn is the request's history and new user text and the bound on the reply's
// tokens (0: none), or the *Error OpenAI's API would answer with. models are the
// model names the request may ask for (matched without regard to case).
func (req *OpenAIRequest) Turn(models []string) (history []llm.Message, text string, maxTokens int, err error) {
	if !modelIn(req.Model, models) {
		e := errorf(http.StatusNotFound, "invalid_request_error", "The model `%s` does not exist: use %s", req.Model, strings.Join(models, ", "))
		e.Code = "model_not_found"
		return nil, "", 0, e
	}
	for i, m := range req.Messages {
		switch m.Role {
		case "system", "developer":
			continue
		case "user", "assistant":
		default:
			return nil, "", 0, errorf(http.StatusBadRequest, "invalid_request_error", "messages[%d].role %q is not supported: use system, user or assistant", i, m.Role)
		}
		history = append(history, llm.Message{Role: llm.Role(m.Role), Text: string(m.Content)})
	}
	n := len(history)
	if n == 0 || history[n-1].Role != llm.RoleUser || strings.TrimSpace(history[n-1].Text) == "" {
		return nil, "", 0, errorf(http.StatusBadRequest, "invalid_request_error", "messages must end with a non-empty user message")
	}
	maxTokens = max(req.MaxTokens, req.MaxCompletionTokens)
	if maxTokens < 0 {
		return nil, "", 0, errorf(http.StatusBadRequest, "invalid_request_error", "max_tokens must not be negative")
	}
	return history[:n-1], history[n-1].Text, maxTokens, nil
}

func modelIn(model string, models []string) bool {
	for _, m := range models {
		if m != "" && strings.EqualFold(model, m) {
			return true
		}
	}
	return false
}

// OpenAICompletion is an answer, or with Object chat.completion.chunk one chunk of a
// streamed answer.
type OpenAICompletion struct {
	ID      string         `json:"id"`
	Object  string         `json:"object"`
	Created int64          `json:"created"`
	Model   string         `json:"model"`
	Choices []OpenAIChoice `json:"choices"`
	Usage   *OpenAIUsage   `json:"usage,omitempty"`
}

// OpenAIChoice is the one choice of an answer or chunk.
type OpenAIChoice struct {
	Index        int          `json:"index"`
	Message      *OpenAIDelta `json:"message,omitempty"`
	Delta        *OpenAIDelta `json:"delta,omitempty"`
	FinishReason *string      `json:"finish_reason"`
}

// OpenAIDelta is a message, or the part of one a chunk adds.
type OpenAIDelta struct {
	Role    string  `json:"role,omitempty"`
	Content *string `json:"content,omitempty"`
}

// OpenAIUsage is an answer's token usage: PromptTokens is the whole prompt, of which
// PromptTokensDetails.CachedTokens were read from the cache and CacheWriteTokens
// written to it (OpenRouter's word; OpenAI reports none, and it is left out at 0).
type OpenAIUsage struct {
	PromptTokens        int `json:"prompt_tokens"`
	CompletionTokens    int `json:"completion_tokens"`
	TotalTokens         int `json:"total_tokens"`
	PromptTokensDetails struct {
		CachedTokens     int `json:"cached_tokens"`
		CacheWriteTokens int `json:"cache_write_tokens,omitempty"`
	} `json:"prompt_tokens_details"`
}

// NewOpenAIUsage is u in OpenAI's words.
func NewOpenAIUsage(u llm.Usage) *OpenAIUsage {
	u = sane(u)
	out := &OpenAIUsage{PromptTokens: u.InputTokens, CompletionTokens: u.OutputTokens, TotalTokens: u.InputTokens + u.OutputTokens}
	out.PromptTokensDetails.CachedTokens = u.CacheReadTokens
	out.PromptTokensDetails.CacheWriteTokens = u.CacheWriteTokens
	return out
}

// NewOpenAICompletion is an answer of model made at created (Unix seconds), with no
// choices yet: Answer and Chunk fill it in.
func NewOpenAICompletion(model string, created int64) OpenAICompletion {
	return OpenAICompletion{ID: "chatcmpl-" + strings.TrimPrefix(MessageID(), "msg_"), Object: "chat.completion",
		Created: created, Model: model, Choices: []OpenAIChoice{}}
}

// Answer is the whole answer: the reply's text, why it stopped and its usage.
func (c OpenAICompletion) Answer(text, stop string, usage *OpenAIUsage) OpenAICompletion {
	c.Object = "chat.completion"
	c.Choices = []OpenAIChoice{{Message: &OpenAIDelta{Role: "assistant", Content: &text}, FinishReason: OpenAIFinish(stop)}}
	c.Usage = usage
	return c
}

// Chunk is a chunk of the streamed answer with choice (none when nil) and usage.
func (c OpenAICompletion) Chunk(choice *OpenAIChoice, usage *OpenAIUsage) OpenAICompletion {
	c.Object, c.Usage, c.Choices = "chat.completion.chunk", usage, []OpenAIChoice{}
	if choice != nil {
		c.Choices = []OpenAIChoice{*choice}
	}
	return c
}

// OpenAIFinish is why the reply stopped, in OpenAI's words.
func OpenAIFinish(stop string) *string {
	reason := "stop"
	if stop == "max_tokens" {
		reason = "length"
	}
	return &reason
}

// OpenAIErrorBody is an error in OpenAI's shape.
type OpenAIErrorBody struct {
	Error struct {
		Message string  `json:"message"`
		Type    string  `json:"type"`
		Param   *string `json:"param"`
		Code    *string `json:"code"`
	} `json:"error"`
}

// OpenAIError is the body of an error of that status and message; err, when it is an
// *Error, gives its own type and code.
func OpenAIError(status int, msg string, err error) OpenAIErrorBody {
	var b OpenAIErrorBody
	b.Error.Message, b.Error.Type = msg, "invalid_request_error"
	code := ""
	var ce *Error
	switch {
	case errors.As(err, &ce) && ce.Type != "":
		b.Error.Type, code = ce.Type, ce.Code
	case status == http.StatusUnauthorized:
		code = "invalid_api_key"
	case status == http.StatusTooManyRequests:
		b.Error.Type, code = "requests", "rate_limit_exceeded"
	case status >= 500:
		b.Error.Type = "server_error"
	}
	if code != "" {
		b.Error.Code = &code
	}
	return b
}
