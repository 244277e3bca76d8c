package wire

import (
	"encoding/json"

	"github.com/wispapp/wisp/internal/jsonpatch"
)

// An action's own events on the chat stream (docs/chat.md, "Custom events and the
// run's state").
const (
	TypeCustom     = "custom"
	TypeStatePatch = "state_patch"
)

// Custom is an event an action published for clients: seed 001's custom chunk
// {eventName, data}, with the call that sent it.
type Custom struct {
	Head
	CallID    string          `json:"callId"`
	EventName string          `json:"eventName"`
	Data      json.RawMessage `json:"data"`
}

// NewCustom is a custom frame.
func NewCustom(callID, name string, data json.RawMessage) Custom {
	return Custom{Head{TypeCustom}, callID, name, data}
}

// StatePatch changes the run's state: RFC 6902 operations on a document that starts
// as {}. Applying every patch of a run in order gives RunState.State.
type StatePatch struct {
	Head
	CallID  string         `json:"callId,omitempty"`
	Patches []jsonpatch.Op `json:"patches"`
}

// NewStatePatch is a state_patch frame.
func NewStatePatch(callID string, patches []jsonpatch.Op) StatePatch {
	return StatePatch{Head{TypeStatePatch}, callID, patches}
}

// RunState is GET /api/runs/{id}/state: the state a run's patches built, as of its
// event Seq (the last patch's number; 0 before any).
type RunState struct {
	RunID string          `json:"runId"`
	Seq   int64           `json:"seq"`
	State json.RawMessage `json:"state"`
}

func stateExamples() []Frame {
	return []Frame{
		NewCustom(exCallID, "shell_progress", json.RawMessage(`{"command":"make test","bytes":2048,"lines":31,"elapsedMs":1200}`)),
		NewStatePatch(exCallID, []jsonpatch.Op{
			jsonpatch.Add("/shell", map[string]any{"callId": exCallID, "command": "make test", "status": "running", "bytes": 0, "lines": 0}),
			jsonpatch.Replace("/shell/bytes", 2048),
		}),
		NewStatePatch("", []jsonpatch.Op{{Op: "move", Path: "/b", From: "/a"}, jsonpatch.Remove("/b")}),
	}
}

func exampleRunState() RunState {
	return RunState{RunID: exRun, Seq: 42, State: json.RawMessage(`{"avatar":{"emote":"wave","name":"Wave"},"shell":{"callId":"call_1","command":"make test","status":"exited","exitCode":0,"bytes":2048,"lines":31}}`)}
}
