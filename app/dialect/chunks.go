package dialect

import (
	"encoding/json"
	"strings"

	"github.com/wispapp/wisp/internal/jsonpatch"
	"github.com/wispapp/wisp/runtime"
)

// Chunks is seed 001's dialect: every event of a run as a typed chunk {type, agentId,
// agentType, timestamp, …}. An action's own custom events and state patches are the
// seed's custom and state_patch chunks; events the seed has no type for (an action's
// callback, a tool's status, a clause to speak) are custom chunks too {eventName, data}. The run's id is
// the agent's id; its type is "wisp". A thinking block's closing chunk
// (isComplete: true) carries the whole block, as the seed's clients expect.
type Chunks struct {
	thought strings.Builder // the thinking block so far
}

// NewChunks returns an encoder for one stream of seed 001's chunks.
func NewChunks() *Chunks { return &Chunks{} }

// The chunks, each declared once.
type (
	// ChunkHead is what every chunk starts with.
	ChunkHead struct {
		Type      string `json:"type"`
		AgentID   string `json:"agentId"`
		AgentType string `json:"agentType"`
		Timestamp int64  `json:"timestamp"`
	}
	TextDeltaChunk struct {
		ChunkHead
		Delta string `json:"delta"`
	}
	ThinkingChunk struct {
		ChunkHead
		Content    string `json:"content"`
		IsComplete bool   `json:"isComplete"`
	}
	ToolStartChunk struct {
		ChunkHead
		ToolCallID string          `json:"toolCallId"`
		ToolName   string          `json:"toolName"`
		Arguments  json.RawMessage `json:"arguments"`
	}
	ToolEndChunk struct {
		ChunkHead
		ToolCallID string `json:"toolCallId"`
		ToolName   string `json:"toolName"`
		Result     any    `json:"result"`
		Error      string `json:"error,omitempty"`
	}
	CustomChunk struct {
		ChunkHead
		EventName string `json:"eventName"`
		Data      any    `json:"data"`
	}
	// CallbackData is the data of the custom chunk of an action's callback.
	CallbackData struct {
		Segment int    `json:"segment"`
		Text    string `json:"text"`
	}
	StatePatchChunk struct {
		ChunkHead
		Patches []jsonpatch.Op `json:"patches"`
	}
	RunPausedChunk struct {
		ChunkHead
		RunID             string          `json:"runId"`
		Reason            string          `json:"reason"`
		PendingToolName   string          `json:"pendingToolName,omitempty"`
		PendingToolCallID string          `json:"pendingToolCallId,omitempty"`
		ApprovalID        string          `json:"approvalId,omitempty"`
		Approval          json.RawMessage `json:"approval,omitempty"`
	}
	RunResumedChunk struct {
		ChunkHead
		RunID            string  `json:"runId"`
		FromCheckpointID *string `json:"fromCheckpointId"`
		FromStepCount    int     `json:"fromStepCount"`
		Mode             string  `json:"mode"`
		ApprovalID       string  `json:"approvalId"`
		Decision         string  `json:"decision"`
	}
	StreamResyncChunk struct {
		ChunkHead
		runtime.StreamResync
	}
	OutputChunk struct {
		ChunkHead
		Output ChunkOutput `json:"output"`
	}
	// ChunkOutput is the output of a run's last chunk.
	ChunkOutput struct {
		MessageID  string `json:"messageId"`
		StopReason string `json:"stopReason"`
		Text       string `json:"text"`
		Usage      any    `json:"usage"`
	}
	ErrorChunk struct {
		ChunkHead
		Error       string `json:"error"`
		Recoverable bool   `json:"recoverable"`
	}
	RunInterruptedChunk struct {
		ChunkHead
		RunID        string  `json:"runId"`
		CheckpointID *string `json:"checkpointId"`
		Reason       string  `json:"reason"`
	}
)

// Observe implements Observer: a thinking block begun before a resume's starting
// point still closes with its whole text.
func (c *Chunks) Observe(ev Event) {
	if d, ok := ev.Event.Data.(runtime.Thinking); ok {
		c.think(d)
	}
}

// think adds a thinking event to the block and returns the chunk's content.
func (c *Chunks) think(d runtime.Thinking) string {
	if !d.Complete {
		c.thought.WriteString(d.Text)
		return d.Text
	}
	c.thought.WriteString(d.Text)
	whole := c.thought.String()
	c.thought.Reset()
	return whole
}

// Encode implements Encoder.
func (c *Chunks) Encode(b []byte, ev Event) ([]byte, error) {
	head := func(typ string) ChunkHead {
		return ChunkHead{Type: typ, AgentID: ev.Run, AgentType: "wisp", Timestamp: ev.Time.UnixMilli()}
	}
	var v any
	switch d := ev.Event.Data.(type) {
	case runtime.TextDelta:
		if d.Text == "" {
			return b, ErrSkip
		}
		v = TextDeltaChunk{head("text_delta"), d.Text}
	case runtime.Thinking:
		v = ThinkingChunk{head("thinking"), c.think(d), d.Complete}
	case runtime.ToolStart:
		v = ToolStartChunk{head("tool_start"), d.CallID, d.Name, orEmptyObject(d.Arguments)}
	case runtime.ToolEnd:
		v = ToolEndChunk{head("tool_end"), d.CallID, d.Name, d.Result, d.Error}
	case runtime.Callback:
		v = CustomChunk{head("custom"), "action_callback", CallbackData{ev.At.Segment, ev.At.SegmentText}}
	case runtime.ToolStatus:
		v = CustomChunk{head("custom"), "tool_status", d}
	case runtime.Speech:
		v = CustomChunk{head("custom"), "speech", d}
	case runtime.Custom:
		v = CustomChunk{head("custom"), d.Name, orEmptyObject(d.Data)}
	case runtime.StatePatch:
		v = StatePatchChunk{head("state_patch"), d.Patches}
	case runtime.RunPaused:
		v = RunPausedChunk{head("run_paused"), ev.Run, d.Reason, d.PendingToolName, d.PendingToolCallID, d.ApprovalID, d.Approval}
	case runtime.RunResumed:
		v = RunResumedChunk{head("run_resumed"), ev.Run, nil, 0, "approval", d.ApprovalID, d.Decision}
	case runtime.StreamResync:
		v = StreamResyncChunk{head("stream_resync"), d}
	case runtime.Output:
		v = OutputChunk{head("output"), ChunkOutput{d.MessageID, d.StopReason, ev.At.Full, d.Usage}}
	case runtime.Error:
		v = ErrorChunk{head("error"), d.Message, d.Recoverable}
	case runtime.Interrupted:
		v = RunInterruptedChunk{head("run_interrupted"), ev.Run, nil, d.Reason}
	case runtime.SummaryStart, runtime.SummaryDelta, runtime.SummaryEnd:
		return b, ErrSkip // the seed has no chunk for a summary
	default:
		return b, unknown(ev)
	}
	data, err := json.Marshal(v)
	if err != nil {
		return b, err
	}
	return append(b, data...), nil
}

func orEmptyObject(raw json.RawMessage) json.RawMessage {
	if len(raw) == 0 {
		return json.RawMessage("{}")
	}
	return raw
}
