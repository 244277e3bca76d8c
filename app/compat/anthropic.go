package compat

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/wispapp/wisp/runtime/llm"
)

// Anthropic's Messages API (seed 004): its request, its answer, streamed or not, its
// models and its errors.

// AnthropicBlock is a content block: text, or in a user message an image with a
// base64 source.
type AnthropicBlock struct {
	Type   string                `json:"type"`
	Text   string                `json:"text"`
	Source *AnthropicImageSource `json:"source,omitempty"`
}

// AnthropicImageSource is an image block's source: base64 data of a media type (a
// source of type url is refused: Wisp does not fetch images).
type AnthropicImageSource struct {
	Type      string `json:"type"`
	MediaType string `json:"media_type"`
	Data      string `json:"data"`
	URL       string `json:"url,omitempty"`
}

// AnthropicContent is a message's content: a string or a list of blocks.
type AnthropicContent []AnthropicBlock

// UnmarshalJSON reads a string or a list of blocks.
func (c *AnthropicContent) UnmarshalJSON(b []byte) error {
	var s string
	if json.Unmarshal(b, &s) == nil {
		*c = AnthropicContent{{Type: "text", Text: s}}
		return nil
	}
	var blocks []AnthropicBlock
	if err := json.Unmarshal(b, &blocks); err != nil {
		return errors.New("content must be a string or a list of content blocks")
	}
	*c = blocks
	return nil
}

// message reads message i's blocks into an llm.Message of role: its text, and its
// images (a user message's only).
func (c AnthropicContent) message(i int, role llm.Role, images *imageBudget) (llm.Message, error) {
	m := llm.Message{Role: role}
	var b strings.Builder
	for j, blk := range c {
		switch blk.Type {
		case "text":
			b.WriteString(blk.Text)
		case "image":
			where := fmt.Sprintf("messages.%d.content.%d", i, j)
			if role != llm.RoleUser {
				return m, errorf(http.StatusBadRequest, "invalid_request_error", "%s: images are read in user messages only", where)
			}
			img, err := blk.image(where, images)
			if err != nil {
				return m, err
			}
			m.Images = append(m.Images, img)
		default:
			return m, errorf(http.StatusBadRequest, "invalid_request_error", "content blocks of type %q are not supported", clip(blk.Type))
		}
	}
	m.Text = b.String()
	return m, nil
}

// image decodes an image block.
func (blk AnthropicBlock) image(where string, images *imageBudget) (llm.Image, error) {
	src := blk.Source
	switch {
	case src == nil:
		return llm.Image{}, errorf(http.StatusBadRequest, "invalid_request_error", "%s.source is required", where)
	case src.Type == "url":
		return llm.Image{}, errorf(http.StatusBadRequest, "invalid_request_error", "%s: %s", where, remoteImage)
	case src.Type != "base64":
		return llm.Image{}, errorf(http.StatusBadRequest, "invalid_request_error", "%s.source.type %q is not supported: use base64", where, clip(src.Type))
	}
	return images.decode(where+".source", src.MediaType, src.Data)
}

// AnthropicRequest is a POST /v1/messages body.
type AnthropicRequest struct {
	Model     string `json:"model"`
	MaxTokens int    `json:"max_tokens"`
	Messages  []struct {
		Role    string           `json:"role"`
		Content AnthropicContent `json:"content"`
	} `json:"messages"`
	Stream bool `json:"stream"`
}

// Turn is the request's history and its new user message (its text and images),
// or the *Error Anthropic's API would answer with.
func (req *AnthropicRequest) Turn() ([]llm.Message, llm.Message, error) {
	history, last, err := req.messages()
	if err == nil && req.MaxTokens < 1 {
		err = errorf(http.StatusBadRequest, "invalid_request_error", "max_tokens: a whole number of at least 1 is required")
	}
	return history, last, err
}

func (req *AnthropicRequest) messages() ([]llm.Message, llm.Message, error) {
	if len(req.Messages) == 0 {
		return nil, llm.Message{}, errorf(http.StatusBadRequest, "invalid_request_error", "messages must not be empty")
	}
	history := make([]llm.Message, 0, len(req.Messages)-1)
	var images imageBudget
	for i, m := range req.Messages {
		var role llm.Role
		switch m.Role {
		case "user":
			role = llm.RoleUser
		case "assistant":
			role = llm.RoleAssistant
		default:
			return nil, llm.Message{}, errorf(http.StatusBadRequest, "invalid_request_error", "messages.%d.role must be user or assistant", i)
		}
		msg, err := m.Content.message(i, role, &images)
		if err != nil {
			return nil, llm.Message{}, err
		}
		if i == len(req.Messages)-1 {
			if role != llm.RoleUser || (strings.TrimSpace(msg.Text) == "" && len(msg.Images) == 0) {
				return nil, llm.Message{}, errorf(http.StatusBadRequest, "invalid_request_error", "the last message must be a non-empty user message")
			}
			return history, msg, nil
		}
		history = append(history, msg)
	}
	return history, llm.Message{}, nil // unreachable
}

// AnthropicText is a text block, or a text delta in a streamed answer.
type AnthropicText struct {
	Type string `json:"type"` // text, or text_delta in a delta
	Text string `json:"text"`
}

// AnthropicUsage is an answer's token usage. Anthropic counts the prompt's tokens
// read from its cache and written to it apart from InputTokens.
type AnthropicUsage struct {
	InputTokens              int `json:"input_tokens"`
	CacheCreationInputTokens int `json:"cache_creation_input_tokens"`
	CacheReadInputTokens     int `json:"cache_read_input_tokens"`
	OutputTokens             int `json:"output_tokens"`
}

// NewAnthropicUsage is u in Anthropic's words: its InputTokens without the cache's.
func NewAnthropicUsage(u llm.Usage) AnthropicUsage {
	u = sane(u)
	return AnthropicUsage{InputTokens: u.InputTokens - u.CacheReadTokens - u.CacheWriteTokens,
		CacheCreationInputTokens: u.CacheWriteTokens, CacheReadInputTokens: u.CacheReadTokens, OutputTokens: u.OutputTokens}
}

// AnthropicMessage is an assistant message.
type AnthropicMessage struct {
	ID           string          `json:"id"`
	Type         string          `json:"type"`
	Role         string          `json:"role"`
	Model        string          `json:"model"`
	Content      []AnthropicText `json:"content"`
	StopReason   *string         `json:"stop_reason"`
	StopSequence *string         `json:"stop_sequence"`
	Usage        AnthropicUsage  `json:"usage"`
}

// NewAnthropicMessage is an assistant message of model; an empty stopReason is null
// (still streaming), and empty text no content.
func NewAnthropicMessage(model, stopReason, text string, usage AnthropicUsage) AnthropicMessage {
	m := AnthropicMessage{ID: MessageID(), Type: "message", Role: "assistant", Model: model, Content: []AnthropicText{}, Usage: usage}
	if stopReason != "" {
		m.StopReason = &stopReason
		m.Content = []AnthropicText{{Type: "text", Text: text}}
	}
	return m
}

// The events of a streamed answer, in order.
type (
	AnthropicMessageStart struct {
		Type    string           `json:"type"` // message_start
		Message AnthropicMessage `json:"message"`
	}
	AnthropicBlockStart struct {
		Type         string        `json:"type"` // content_block_start
		Index        int           `json:"index"`
		ContentBlock AnthropicText `json:"content_block"`
	}
	AnthropicBlockDelta struct {
		Type  string        `json:"type"` // content_block_delta
		Index int           `json:"index"`
		Delta AnthropicText `json:"delta"`
	}
	AnthropicBlockStop struct {
		Type  string `json:"type"` // content_block_stop
		Index int    `json:"index"`
	}
	AnthropicMessageDelta struct {
		Type  string `json:"type"` // message_delta
		Delta struct {
			StopReason   string  `json:"stop_reason"`
			StopSequence *string `json:"stop_sequence"`
		} `json:"delta"`
		Usage AnthropicUsage `json:"usage"` // the whole answer's
	}
	AnthropicMessageStop struct {
		Type string `json:"type"` // message_stop
	}
)

// The streamed answer's events, by name.
func AnthropicStart(model string) AnthropicMessageStart {
	return AnthropicMessageStart{"message_start", NewAnthropicMessage(model, "", "", AnthropicUsage{})}
}

// AnthropicTextStart opens the answer's one text block.
func AnthropicTextStart() AnthropicBlockStart {
	return AnthropicBlockStart{Type: "content_block_start", ContentBlock: AnthropicText{Type: "text"}}
}

// AnthropicTextDelta is more of the answer's text.
func AnthropicTextDelta(text string) AnthropicBlockDelta {
	return AnthropicBlockDelta{Type: "content_block_delta", Delta: AnthropicText{Type: "text_delta", Text: text}}
}

// AnthropicTextStop closes the text block.
func AnthropicTextStop() AnthropicBlockStop { return AnthropicBlockStop{Type: "content_block_stop"} }

// AnthropicEnd is the message_delta that says why the answer stopped and what it
// cost in all (the prompt's tokens included: the stream's message_start was sent
// before they were known).
func AnthropicEnd(stop string, usage llm.Usage) AnthropicMessageDelta {
	end := AnthropicMessageDelta{Type: "message_delta"}
	end.Delta.StopReason, end.Usage = AnthropicStopReason(stop), NewAnthropicUsage(usage)
	return end
}

// AnthropicStop ends the stream.
func AnthropicStop() AnthropicMessageStop { return AnthropicMessageStop{Type: "message_stop"} }

// AnthropicStopReason is why the reply stopped, in the words Anthropic's API uses:
// the model's own (end_turn, max_tokens, stop_sequence, refusal), or end_turn.
func AnthropicStopReason(model string) string {
	switch model {
	case "max_tokens", "stop_sequence", "refusal":
		return model
	}
	return "end_turn"
}

// AnthropicErrorBody is an error in Anthropic's shape.
type AnthropicErrorBody struct {
	Type  string `json:"type"` // error
	Error struct {
		Type    string `json:"type"`
		Message string `json:"message"`
	} `json:"error"`
}

// anthropicTypes are Anthropic's error types by status (docs.claude.com/en/api/errors):
// any other 4xx is an invalid_request_error, any other 5xx an api_error.
var anthropicTypes = map[int]string{
	http.StatusUnauthorized:          "authentication_error",
	http.StatusForbidden:             "permission_error",
	http.StatusNotFound:              "not_found_error",
	http.StatusRequestEntityTooLarge: "request_too_large",
	http.StatusTooManyRequests:       "rate_limit_error",
	529:                              "overloaded_error",
}

// AnthropicError is the body of an error of that status and message; err, when it is
// an *Error, gives its own type.
func AnthropicError(status int, msg string, err error) AnthropicErrorBody {
	b := AnthropicErrorBody{Type: "error"}
	b.Error.Message = msg
	var ce *Error
	switch {
	case errors.As(err, &ce) && ce.Type != "":
		b.Error.Type = ce.Type
	case anthropicTypes[status] != "":
		b.Error.Type = anthropicTypes[status]
	case status >= 400 && status < 500:
		b.Error.Type = "invalid_request_error"
	default:
		b.Error.Type = "api_error"
	}
	return b
}

// AnthropicModelNotFound is the error of GET /v1/models/{id} for another model.
func AnthropicModelNotFound(id string) *Error {
	return errorf(http.StatusNotFound, "not_found_error", "model: %s is not a model here; GET /v1/models lists the one there is", id)
}

// Model is the agent as a model, in the fields of both Anthropic's and OpenAI's
// model objects (each SDK reads its own and ignores the others).
type Model struct {
	Type        string `json:"type"` // model (Anthropic)
	ID          string `json:"id"`
	DisplayName string `json:"display_name"`
	CreatedAt   string `json:"created_at"`
	Object      string `json:"object"` // model (OpenAI)
	Created     int64  `json:"created"`
	OwnedBy     string `json:"owned_by"`
}

// ModelList is the list of models: the agent.
type ModelList struct {
	Object  string  `json:"object"` // list (OpenAI)
	Data    []Model `json:"data"`
	HasMore bool    `json:"has_more"`
	FirstID string  `json:"first_id"`
	LastID  string  `json:"last_id"`
}

// modelCreated is when the agent "model" was made: 2026-01-01.
const modelCreated = 1767225600

// AgentModel is the agent named name as a model.
func AgentModel(name string) Model {
	return Model{Type: "model", ID: name, DisplayName: name, CreatedAt: "2026-01-01T00:00:00Z",
		Object: "model", Created: modelCreated, OwnedBy: "wisp"}
}

// AgentModels lists the agent named name.
func AgentModels(name string) ModelList {
	return ModelList{Object: "list", Data: []Model{AgentModel(name)}, FirstID: name, LastID: name}
}

// MessageID is a new message id, msg_ and 24 hex digits.
func MessageID() string {
	b := make([]byte, 12)
	_, _ = rand.Read(b)
	return "msg_" + hex.EncodeToString(b)
}
