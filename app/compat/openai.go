package compat

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/wispapp/wisp/runtime/llm"
)

// OpenAI's chat completions: its request, its answer, streamed or not, and its errors.
// A client's system (or developer) messages are not used: Wisp answers as its
// character.

// OpenAIContent is a message's content: a string or a list of parts (text, and in
// a user message image_url with a data URL).
type OpenAIContent []OpenAIPart

// OpenAIPart is one part of a message's content.
type OpenAIPart struct {
	Type     string `json:"type"`
	Text     string `json:"text"`
	ImageURL *struct {
		URL    string `json:"url"`
		Detail string `json:"detail,omitempty"`
	} `json:"image_url,omitempty"`
}

// UnmarshalJSON reads a string or a list of parts.
func (c *OpenAIContent) UnmarshalJSON(b []byte) error {
	var s string
	if json.Unmarshal(b, &s) == nil {
		*c = OpenAIContent{{Type: "text", Text: s}}
		return nil
	}
	var parts []OpenAIPart
	if err := json.Unmarshal(b, &parts); err != nil {
		return errors.New("content must be a string or a list of content parts")
	}
	*c = parts
	return nil
}

// message reads message i's parts into an llm.Message of role: its text, and its
// images (a user message's only).
func (c OpenAIContent) message(i int, role llm.Role, images *imageBudget) (llm.Message, error) {
	m := llm.Message{Role: role}
	var b strings.Builder
	for j, p := range c {
		switch p.Type {
		case "text":
			b.WriteString(p.Text)
		case "image_url":
			where := fmt.Sprintf("messages[%d].content[%d]", i, j)
			if role != llm.RoleUser {
				return m, errorf(http.StatusBadRequest, "invalid_request_error", "%s: images are read in user messages only", where)
			}
			img, err := p.image(where, images)
			if err != nil {
				return m, err
			}
			m.Images = append(m.Images, img)
		default:
			return m, errorf(http.StatusBadRequest, "invalid_request_error", "content parts of type %q are not supported", clip(p.Type))
		}
	}
	m.Text = b.String()
	return m, nil
}

// Text is the content's text, for a route that reads text only (seed 003's
// /api/chat): a part of another type is refused.
func (c OpenAIContent) Text() (string, error) {
	var b strings.Builder
	for _, p := range c {
		if p.Type != "text" {
			return "", errorf(http.StatusBadRequest, "invalid_request_error", "content parts of type %q are not supported here", clip(p.Type))
		}
		b.WriteString(p.Text)
	}
	return b.String(), nil
}

// image decodes an image_url part: a data URL of base64 data.
func (p OpenAIPart) image(where string, images *imageBudget) (llm.Image, error) {
	if p.ImageURL == nil || p.ImageURL.URL == "" {
		return llm.Image{}, errorf(http.StatusBadRequest, "invalid_request_error", "%s.image_url.url is required", where)
	}
	u := p.ImageURL.URL
	if isRemote(u) {
		return llm.Image{}, errorf(http.StatusBadRequest, "invalid_request_error", "%s: %s", where, remoteImage)
	}
	mediaType, data, ok := ParseDataURL(u)
	if !ok {
		return llm.Image{}, errorf(http.StatusBadRequest, "invalid_request_error",
			"%s.image_url.url is not a data URL of base64 data (data:image/png;base64,…)", where)
	}
	return images.decode(where+".image_url", mediaType, data)
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

// Turn is the request's history and its new user message (its text and images)
// and the bound on the reply's tokens (0: none), or the *Error OpenAI's API would
// answer with. models are the model names the request may ask for (matched without
// regard to case).
func (req *OpenAIRequest) Turn(models []string) (history []llm.Message, last llm.Message, maxTokens int, err error) {
	if !modelIn(req.Model, models) {
		e := errorf(http.StatusNotFound, "invalid_request_error", "The model `%s` does not exist: use %s", clip(req.Model), strings.Join(models, ", "))
		e.Code = "model_not_found"
		return nil, last, 0, e
	}
	var images imageBudget
	for i, m := range req.Messages {
		switch m.Role {
		case "system", "developer":
			continue
		case "user", "assistant":
		default:
			return nil, last, 0, errorf(http.StatusBadRequest, "invalid_request_error", "messages[%d].role %q is not supported: use system, user or assistant", i, clip(m.Role))
		}
		msg, err := m.Content.message(i, llm.Role(m.Role), &images)
		if err != nil {
			return nil, last, 0, err
		}
		history = append(history, msg)
	}
	n := len(history)
	if n == 0 || history[n-1].Role != llm.RoleUser || (strings.TrimSpace(history[n-1].Text) == "" && len(history[n-1].Images) == 0) {
		return nil, last, 0, errorf(http.StatusBadRequest, "invalid_request_error", "messages must end with a non-empty user message")
	}
	maxTokens = max(req.MaxTokens, req.MaxCompletionTokens)
	if maxTokens < 0 {
		return nil, last, 0, errorf(http.StatusBadRequest, "invalid_request_error", "max_tokens must not be negative")
	}
	return history[:n-1], history[n-1], maxTokens, nil
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
