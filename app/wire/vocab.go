package wire

// The status vocabularies of the wire: typed string constants, sent to the frontend
// as string-literal unions (frontend/src/api/wire.gen.ts).

// AppState is the agent's state (Status.State).
type AppState string

// The agent's states.
const (
	StateNotStarted AppState = "not_started"
	StateStarting   AppState = "starting"
	StateRunning    AppState = "running"
	StatePaused     AppState = "paused"
	StateStopped    AppState = "stopped"
	StateRestarting AppState = "restarting"
	StateError      AppState = "error"
)

// AppStates are every AppState.
var AppStates = []AppState{StateNotStarted, StateStarting, StateRunning, StatePaused, StateStopped, StateRestarting, StateError}

// ApprovalStatus is where an approval stands (Approval.Status).
type ApprovalStatus string

// The approval statuses: pending until somebody decides or the run stops.
const (
	ApprovalPending   ApprovalStatus = "pending"
	ApprovalApproved  ApprovalStatus = "approved"
	ApprovalDenied    ApprovalStatus = "denied"
	ApprovalCancelled ApprovalStatus = "cancelled"
)

// ApprovalStatuses are every ApprovalStatus.
var ApprovalStatuses = []ApprovalStatus{ApprovalPending, ApprovalApproved, ApprovalDenied, ApprovalCancelled}

// ToolCallStatus is where an action call stands (seed 002's lifecycle): pending from
// its start, waiting while the user is asked, executing while it runs, then one of
// the last four.
type ToolCallStatus string

// The action call statuses.
const (
	ToolCallPending     ToolCallStatus = "pending"
	ToolCallWaiting     ToolCallStatus = "waiting"
	ToolCallExecuting   ToolCallStatus = "executing"
	ToolCallCompleted   ToolCallStatus = "completed"
	ToolCallFailed      ToolCallStatus = "failed"
	ToolCallCancelled   ToolCallStatus = "cancelled"
	ToolCallInterrupted ToolCallStatus = "interrupted"
)

// ToolCallStatuses are every ToolCallStatus.
var ToolCallStatuses = []ToolCallStatus{ToolCallPending, ToolCallWaiting, ToolCallExecuting, ToolCallCompleted,
	ToolCallFailed, ToolCallCancelled, ToolCallInterrupted}

// Confinement says how far the agent's commands and MCP servers are confined
// (docs/confinement.md).
type Confinement string

// The confinements.
const (
	ConfinementFull    Confinement = "full"
	ConfinementPartial Confinement = "partial"
	ConfinementNone    Confinement = "none"
)

// Confinements are every Confinement.
var Confinements = []Confinement{ConfinementFull, ConfinementPartial, ConfinementNone}

// TerminalEvents are every TerminalEvent.
var TerminalEvents = []TerminalEvent{TerminalStart, TerminalStdout, TerminalStderr, TerminalTimeout, TerminalExit, TerminalError}

// Enums are the vocabularies above, for the TypeScript generator: each a list of
// one typed string's values.
func Enums() [][]any {
	return [][]any{anys(AppStates), anys(ApprovalStatuses), anys(ToolCallStatuses), anys(Confinements), anys(TerminalEvents)}
}

func anys[T any](s []T) []any {
	out := make([]any, len(s))
	for i, v := range s {
		out[i] = v
	}
	return out
}
