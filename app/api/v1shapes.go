package api

// The Anthropic Messages API's shapes, as /v1 answers with them. They are Anthropic's
// wire, not Wisp's, so they live here and not in the frame catalog (app/wire).

type v1Text struct {
	Type string `json:"type"` // text, or text_delta in a delta
	Text string `json:"text"`
}

type v1Usage struct {
	InputTokens  int `json:"input_tokens"`
	OutputTokens int `json:"output_tokens"`
}

type v1Message struct {
	ID           string   `json:"id"`
	Type         string   `json:"type"`
	Role         string   `json:"role"`
	Model        string   `json:"model"`
	Content      []v1Text `json:"content"`
	StopReason   *string  `json:"stop_reason"`
	StopSequence *string  `json:"stop_sequence"`
	Usage        v1Usage  `json:"usage"`
}

// newV1Message is an assistant message; an empty stopReason is null (still streaming).
func newV1Message(model, stopReason string, content []v1Text, usage v1Usage) v1Message {
	m := v1Message{ID: messageID(), Type: "message", Role: "assistant", Model: model, Content: content, Usage: usage}
	if stopReason != "" {
		m.StopReason = &stopReason
	}
	if m.Content == nil {
		m.Content = []v1Text{}
	}
	return m
}

// The events of a streamed answer, in order.
type (
	v1MessageStart struct {
		Type    string    `json:"type"` // message_start
		Message v1Message `json:"message"`
	}
	v1BlockStart struct {
		Type         string `json:"type"` // content_block_start
		Index        int    `json:"index"`
		ContentBlock v1Text `json:"content_block"`
	}
	v1BlockDelta struct {
		Type  string `json:"type"` // content_block_delta
		Index int    `json:"index"`
		Delta v1Text `json:"delta"`
	}
	v1BlockStop struct {
		Type  string `json:"type"` // content_block_stop
		Index int    `json:"index"`
	}
	v1MessageDelta struct {
		Type  string `json:"type"` // message_delta
		Delta struct {
			StopReason   string  `json:"stop_reason"`
			StopSequence *string `json:"stop_sequence"`
		} `json:"delta"`
		Usage struct {
			OutputTokens int `json:"output_tokens"`
		} `json:"usage"`
	}
	v1MessageStop struct {
		Type string `json:"type"` // message_stop
	}
)

// v1ErrorBody is an error in Anthropic's shape.
type v1ErrorBody struct {
	Type  string `json:"type"` // error
	Error struct {
		Type    string `json:"type"`
		Message string `json:"message"`
	} `json:"error"`
}

// v1Model is the agent as a model, in the fields of both Anthropic's and OpenAI's
// model objects (each SDK reads its own and ignores the others).
type v1Model struct {
	Type        string `json:"type"` // model (Anthropic)
	ID          string `json:"id"`
	DisplayName string `json:"display_name"`
	CreatedAt   string `json:"created_at"`
	Object      string `json:"object"` // model (OpenAI)
	Created     int64  `json:"created"`
	OwnedBy     string `json:"owned_by"`
}

type v1ModelList struct {
	Object  string    `json:"object"` // list (OpenAI)
	Data    []v1Model `json:"data"`
	HasMore bool      `json:"has_more"`
	FirstID string    `json:"first_id"`
	LastID  string    `json:"last_id"`
}

// modelCreated is when the agent "model" was made: 2026-01-01.
const modelCreated = 1767225600

func agentModel(name string) v1Model {
	return v1Model{Type: "model", ID: name, DisplayName: name, CreatedAt: "2026-01-01T00:00:00Z",
		Object: "model", Created: modelCreated, OwnedBy: "wisp"}
}
