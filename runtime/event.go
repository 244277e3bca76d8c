package runtime

import (
	"encoding/json"

	"github.com/wispapp/wisp/internal/jsonpatch"
	"github.com/wispapp/wisp/runtime/llm"
)

// EventType names a run event (the helix vocabulary of seed 001).
type EventType string

// The run event types. Data carries the matching *Data struct below.
const (
	EventTextDelta   EventType = "text_delta" // TextDelta
	EventThinking    EventType = "thinking"   // Thinking
	EventToolStart   EventType = "tool_start" // ToolStart
	EventCallback    EventType = "callback"   // Callback
	EventToolEnd     EventType = "tool_end"   // ToolEnd
	EventError       EventType = "error"      // Error
	EventOutput      EventType = "output"     // Output (the last event of a successful run)
	EventInterrupted EventType = "run_interrupted"
	EventToolStatus  EventType = "tool_status" // ToolStatus
	EventRunPaused   EventType = "run_paused"  // RunPaused
	EventRunResumed  EventType = "run_resumed" // RunResumed
	// EventStreamResync tells clients to reload the run's conversation (seed 001).
	EventStreamResync EventType = "stream_resync" // StreamResync
	EventCustom       EventType = "custom"        // Custom
	EventStatePatch   EventType = "state_patch"   // StatePatch
	// A summary of the conversation's older messages, made before the turn's model
	// call (or alone, when the user regenerates one).
	EventSummaryStart EventType = "summary_start" // SummaryStart
	EventSummaryDelta EventType = "summary_delta" // SummaryDelta
	EventSummaryEnd   EventType = "summary_end"   // SummaryEnd
	// A clause of the reply to speak, when the run speaks (runtime/speech).
	EventSpeech EventType = "speech" // Speech
)

// EventKinds are all the run event types, in the order above: whoever renders events
// (the chat dialects) is tested against every one of them.
var EventKinds = []EventType{
	EventTextDelta, EventThinking, EventToolStart, EventCallback, EventToolEnd, EventError,
	EventOutput, EventInterrupted, EventToolStatus, EventRunPaused, EventRunResumed,
	EventStreamResync, EventCustom, EventStatePatch, EventSummaryStart, EventSummaryDelta, EventSummaryEnd,
	EventSpeech,
}

// Event is one thing a run produced. The runtime fills Type and Data; whoever records
// the run log numbers it.
type Event struct {
	Type EventType
	Data any
}

// Emit receives a turn's events in order, each with the visible reply right after
// it: the turn folds every event once, through Apply, so nobody downstream needs to
// fold them again.
type Emit func(ev Event, at Fold)

// Fold is the visible reply right after an event: its full text, and the segment the
// event changed.
type Fold struct {
	Full string
	// Segment is the index of the reply segment the event appended to, opened or
	// replaced; -1 when it changed none.
	Segment int
	// SegmentText is that segment's whole text after a callback; empty after other
	// events (a text delta's change is the delta itself).
	SegmentText string
}

// TextDelta is more visible text from the model, appended raw.
type TextDelta struct {
	Text string `json:"text"`
}

// Thinking is more of the model's reasoning in the current step. The step's
// reasoning ends with one whose Complete is set (and Text empty), before the step's
// text or calls.
type Thinking struct {
	Text     string `json:"text"`
	Complete bool   `json:"complete,omitempty"`
}

// ToolStart opens an action invocation; it owns one callback segment of the reply.
type ToolStart struct {
	CallID    string          `json:"callId"` // Wisp's id of the call (llm.ToolCall.Key)
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments"`
	// ModelID is the provider's id of the call, which its result goes back to the
	// model with ("" when it is the CallID: a log from before Wisp made its own).
	ModelID string `json:"modelId,omitempty"`
	// Step is the model call (from 1) that asked for it: a resume rebuilds the
	// model's messages step by step from the log.
	Step int `json:"step,omitempty"`
}

// Merge says how a callback's text combines with its segment.
type Merge string

// The callback merge modes of the seed's plugin contract.
const (
	MergeReplace Merge = "replace" // the default
	MergeAppend  Merge = "append"
)

// Callback is an action's progressive status.
type Callback struct {
	CallID string `json:"callId"`
	Text   string `json:"text"`
	Merge  Merge  `json:"merge"`
}

// ToolEnd closes an action invocation with what is fed back to the model.
type ToolEnd struct {
	CallID string `json:"callId"`
	Name   string `json:"name"`
	Result string `json:"result,omitempty"`
	Error  string `json:"error,omitempty"`
}

// Error is a failure; a recoverable one lets the run continue.
type Error struct {
	Message     string `json:"message"`
	Recoverable bool   `json:"recoverable"`
}

// Output ends a successful run.
type Output struct {
	FullText   string    `json:"fullText"`
	Usage      llm.Usage `json:"usage"`
	StopReason string    `json:"stopReason"`
	Steps      int       `json:"steps"`
	MessageID  string    `json:"messageId,omitempty"` // where the caller saved the reply
	// History is the reply's actionCallbackHistory.
	History []string `json:"history,omitempty"`
}

// Interrupted ends a run that was stopped before it finished.
type Interrupted struct {
	Reason string `json:"reason"`
}

// Tool statuses (seed 002's lifecycle). A tool is pending from its start, waiting
// while the user is asked, executing while it runs, and then one of the last four.
const (
	ToolPending     = "pending"
	ToolWaiting     = "waiting"
	ToolExecuting   = "executing"
	ToolCompleted   = "completed"
	ToolFailed      = "failed"
	ToolCancelled   = "cancelled"
	ToolInterrupted = "interrupted"
)

// ToolStatus is a change in an action call's status.
type ToolStatus struct {
	CallID string `json:"callId"`
	Name   string `json:"name"`
	Status string `json:"status"`
	// TerminalRunID is the terminal run the call started, once it did.
	TerminalRunID string `json:"terminalRunId,omitempty"`
}

// RunPaused says the run waits for the user before an action call runs (seed 001).
type RunPaused struct {
	Reason            string `json:"reason"`
	PendingToolName   string `json:"pendingToolName"`
	PendingToolCallID string `json:"pendingToolCallId"`
	ApprovalID        string `json:"approvalId"`
	// Approval is what the user is asked (the action's JSON).
	Approval json.RawMessage `json:"approval,omitempty"`
	// Step is the model's message of the paused step, with every call it asked for
	// and its reasoning as the provider needs it back; Pending are the calls of that
	// step still to run, the paused one first. A resume after a restart starts here.
	Step    llm.Message    `json:"step"`
	Pending []llm.ToolCall `json:"pending"`
	StepNo  int            `json:"stepNo"`
}

// RunResumed says the user decided and the run goes on.
type RunResumed struct {
	ApprovalID string `json:"approvalId"`
	Decision   string `json:"decision"`
}

// Why a stream was resynced.
const ResyncCrashRecovery = "crash_recovery"

// StreamResync tells a stream's clients that what they show may be behind: reload the
// conversation's snapshot and go on from FromSequence (seed 001).
type StreamResync struct {
	Reason       string `json:"reason"`
	FromSequence int64  `json:"fromSequence"`
	// MessageCount is how many events of the run were on disk at the recovery.
	MessageCount int `json:"messageCount"`
}

// Custom is an event an action publishes for clients (seed 001's custom chunk): a
// name of the action's choosing and any JSON.
type Custom struct {
	CallID string          `json:"callId"`
	Name   string          `json:"eventName"`
	Data   json.RawMessage `json:"data"`
}

// StatePatch changes the run's state, a JSON document that starts as {} and that
// actions change by RFC 6902 operations (Call.Patch). A client applying every
// patch of a run in order to {} holds the state the run has.
type StatePatch struct {
	CallID  string         `json:"callId,omitempty"`
	Patches []jsonpatch.Op `json:"patches"`
}

// SummaryInfo is a summary of a branch's older messages as its events carry it: the
// fields of the API's Summary (app/wire), which the dialects send as they are.
type SummaryInfo struct {
	ID             string `json:"id"`
	ConversationID string `json:"conversationId"`
	ThroughID      string `json:"throughId"`
	Covers         int    `json:"covers"`
	FromAt         string `json:"fromAt"`
	ThroughAt      string `json:"throughAt"`
	Text           string `json:"text"`
	Status         string `json:"status"`
	Error          string `json:"error,omitempty"`
	RunID          string `json:"runId"`
	Tokens         int    `json:"tokens"`
	CreatedAt      string `json:"createdAt"`
}

// SummaryStart opens a summary (status streaming); its text follows in deltas.
type SummaryStart struct {
	Summary SummaryInfo `json:"summary"`
}

// SummaryDelta is more of a summary's text.
type SummaryDelta struct {
	SummaryID string `json:"summaryId"`
	Text      string `json:"text"`
}

// SummaryEnd closes a summary: done (with its whole text) or failed.
type SummaryEnd struct {
	Summary SummaryInfo `json:"summary"`
}

// Speech is one clause of the reply to speak, sent after the text delta that completed
// it: Text is what is said (runtime/speech cuts and cleans it), Segment the reply
// segment it comes from and Start/End its bounds in that segment's text, in UTF-16
// code units. Index numbers a run's clauses from 0; Final marks the run's last.
type Speech struct {
	Index   int    `json:"index"`
	Text    string `json:"text"`
	Segment int    `json:"segment"`
	Start   int    `json:"start"`
	End     int    `json:"end"`
	Final   bool   `json:"final,omitempty"`
}
