package chat

import (
	"encoding/json"

	"github.com/wispapp/wisp/internal/jsonpatch"
	"github.com/wispapp/wisp/runtime"
)

// Seed 001's chunks: every event of a run as a typed chunk {type, agentId,
// agentType, timestamp, …}. An action's own custom events and state patches are
// the seed's custom and state_patch chunks; events the seed has no type for (an
// action's callback, a tool's status) are custom chunks too {eventName, data}. The run's id is the agent's
// id; its type is "wisp".

type chunkHead struct {
	Type      string `json:"type"`
	AgentID   string `json:"agentId"`
	AgentType string `json:"agentType"`
	Timestamp int64  `json:"timestamp"`
}

// encodeChunk renders one item as a chunk.
func (sub *Subscription) encodeChunk(it Item) ([]byte, bool) {
	head := func(typ string) chunkHead {
		return chunkHead{Type: typ, AgentID: sub.runID, AgentType: "wisp", Timestamp: it.Time.UnixMilli()}
	}
	var v any
	switch d := it.Event.Data.(type) {
	case runtime.TextDelta:
		if d.Text == "" {
			return nil, false
		}
		v = struct {
			chunkHead
			Delta string `json:"delta"`
		}{head("text_delta"), d.Text}
	case runtime.Thinking:
		v = struct {
			chunkHead
			Content    string `json:"content"`
			IsComplete bool   `json:"isComplete"`
		}{head("thinking"), d.Text, d.Complete}
	case runtime.ToolStart:
		v = struct {
			chunkHead
			ToolCallID string          `json:"toolCallId"`
			ToolName   string          `json:"toolName"`
			Arguments  json.RawMessage `json:"arguments"`
		}{head("tool_start"), d.CallID, d.Name, orEmptyObject(d.Arguments)}
	case runtime.ToolEnd:
		v = struct {
			chunkHead
			ToolCallID string `json:"toolCallId"`
			ToolName   string `json:"toolName"`
			Result     any    `json:"result"`
			Error      string `json:"error,omitempty"`
		}{head("tool_end"), d.CallID, d.Name, d.Result, d.Error}
	case runtime.Callback:
		v = custom(head("custom"), "action_callback", map[string]any{"text": it.At.SegmentText, "segment": it.At.Segment})
	case runtime.ToolStatus:
		v = custom(head("custom"), "tool_status", d)
	case runtime.Custom:
		v = custom(head("custom"), d.Name, orEmptyObject(d.Data))
	case runtime.StatePatch:
		v = struct {
			chunkHead
			Patches []jsonpatch.Op `json:"patches"`
		}{head("state_patch"), d.Patches}
	case runtime.RunPaused:
		v = struct {
			chunkHead
			RunID             string          `json:"runId"`
			Reason            string          `json:"reason"`
			PendingToolName   string          `json:"pendingToolName,omitempty"`
			PendingToolCallID string          `json:"pendingToolCallId,omitempty"`
			ApprovalID        string          `json:"approvalId,omitempty"`
			Approval          json.RawMessage `json:"approval,omitempty"`
		}{head("run_paused"), sub.runID, d.Reason, d.PendingToolName, d.PendingToolCallID, d.ApprovalID, d.Approval}
	case runtime.RunResumed:
		v = struct {
			chunkHead
			RunID            string  `json:"runId"`
			FromCheckpointID *string `json:"fromCheckpointId"`
			FromStepCount    int     `json:"fromStepCount"`
			Mode             string  `json:"mode"`
			ApprovalID       string  `json:"approvalId"`
			Decision         string  `json:"decision"`
		}{head("run_resumed"), sub.runID, nil, 0, "approval", d.ApprovalID, d.Decision}
	case runtime.StreamResync:
		v = struct {
			chunkHead
			runtime.StreamResync
		}{head("stream_resync"), d}
	case runtime.Output:
		v = struct {
			chunkHead
			Output any `json:"output"`
		}{head("output"), map[string]any{"text": it.At.Full, "messageId": d.MessageID, "usage": d.Usage, "stopReason": d.StopReason}}
	case runtime.Error:
		v = struct {
			chunkHead
			Error       string `json:"error"`
			Recoverable bool   `json:"recoverable"`
		}{head("error"), d.Message, d.Recoverable}
	case runtime.Interrupted:
		v = struct {
			chunkHead
			RunID        string  `json:"runId"`
			CheckpointID *string `json:"checkpointId"`
			Reason       string  `json:"reason"`
		}{head("run_interrupted"), sub.runID, nil, d.Reason}
	default:
		return nil, false
	}
	data, err := json.Marshal(v)
	if err != nil {
		return nil, false
	}
	sub.scratch = append(sub.scratch[:0], data...)
	return sub.scratch, true
}

func custom(h chunkHead, name string, data any) any {
	return struct {
		chunkHead
		EventName string `json:"eventName"`
		Data      any    `json:"data"`
	}{h, name, data}
}

func orEmptyObject(raw json.RawMessage) json.RawMessage {
	if len(raw) == 0 {
		return json.RawMessage("{}")
	}
	return raw
}
