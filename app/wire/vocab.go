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
	return [][]any{anys(AppStates), anys(ApprovalStatuses), anys(ToolCallStatuses), anys(Confinements), anys(TerminalEvents),
		{RoleUser, RoleAssistant}, {RunActive, RunWaiting, RunEnded, RunFailed, RunInterrupted},
		{DisplayUser, DisplayAssistant, DisplayTool, DisplaySystem},
		{ContentText, ContentThinking, ContentToolCall, ContentToolResult, ContentError, ContentNotification, ContentApproval},
		{ReminderPending, ReminderDelivered}, {TurnThinking, TurnReplying, TurnSent, TurnFailed}, {KindShell, KindMCP, KindMemory, KindWeb, KindFileRead, KindFileEdit, KindTask},
		{DecisionApprove, DecisionApproveAlways, DecisionDeny}, {MCPStarting, MCPRunning, MCPFailed, MCPDisabled},
		{MCPStdio, MCPHTTP}, {SecretsInKeyring, SecretsInFile},
		{SummaryStreaming, SummaryDone, SummaryFailed, SummaryUndone}, anys(AttachmentKinds),
		anys(ExpressionNames), anys(AvatarKinds), anys(TaskRunStatuses)}
}

func anys[T any](s []T) []any {
	out := make([]any, len(s))
	for i, v := range s {
		out[i] = v
	}
	return out
}

// Role is who said a message.
type Role string

// The roles.
const (
	RoleUser      Role = "user"
	RoleAssistant Role = "assistant"
)

// RunStatus is where a run stands (RunInfo, Snapshot, SendResult, and an assistant
// message of a run): active, paused (waiting for the user), then how it ended.
type RunStatus string

// The run statuses.
const (
	RunActive      RunStatus = "active"
	RunWaiting     RunStatus = "paused" // for the user
	RunEnded       RunStatus = "ended"
	RunFailed      RunStatus = "failed"
	RunInterrupted RunStatus = "interrupted"
)

// DisplayMessageType is who a display message's row is of.
type DisplayMessageType string

// The display message types.
const (
	DisplayUser      DisplayMessageType = "user"
	DisplayAssistant DisplayMessageType = "assistant"
	DisplayTool      DisplayMessageType = "tool"
	DisplaySystem    DisplayMessageType = "system"
)

// DisplayContentType is what a display message's content is.
type DisplayContentType string

// The display content types.
const (
	ContentText         DisplayContentType = "text"
	ContentThinking     DisplayContentType = "thinking"
	ContentToolCall     DisplayContentType = "tool_call"
	ContentToolResult   DisplayContentType = "tool_result"
	ContentError        DisplayContentType = "error"
	ContentNotification DisplayContentType = "notification"
	ContentApproval     DisplayContentType = "approval"
)

// ReminderStatus is whether a reminder was delivered yet.
type ReminderStatus string

// The reminder statuses.
const (
	ReminderPending   ReminderStatus = "pending"
	ReminderDelivered ReminderStatus = "delivered"
)

// TurnStatus is a chat turn's step in its heartbeat_event: thinking when it starts,
// replying at its first text, then sent or failed.
type TurnStatus string

// The turn statuses.
const (
	TurnThinking TurnStatus = "thinking"
	TurnReplying TurnStatus = "replying"
	TurnSent     TurnStatus = "sent"
	TurnFailed   TurnStatus = "failed"
)

// ApprovalKind says what an approval or a grant is of: a shell command or an MCP
// tool call.
type ApprovalKind string

// Approval and grant kinds.
const (
	KindShell  ApprovalKind = "shell"
	KindMCP    ApprovalKind = "mcp"
	KindMemory ApprovalKind = "memory" // a REMEMBER (approvals only: no grant is of it)
)

// ApprovalDecision is the user's answer: run it once, run it and grant its bases,
// or refuse.
type ApprovalDecision string

// The decisions.
const (
	DecisionApprove       ApprovalDecision = "approve"
	DecisionApproveAlways ApprovalDecision = "approve_always"
	DecisionDeny          ApprovalDecision = "deny"
)

// MCPServerStatus is where an MCP server stands.
type MCPServerStatus string

// MCP server states.
const (
	MCPStarting MCPServerStatus = "starting"
	MCPRunning  MCPServerStatus = "running"
	MCPFailed   MCPServerStatus = "failed"
	MCPDisabled MCPServerStatus = "disabled"
)

// MCPTransport is how Wisp talks to an MCP server: a command it runs (stdio) or a
// Streamable HTTP URL.
type MCPTransport string

// The MCP transports.
const (
	MCPStdio MCPTransport = "stdio"
	MCPHTTP  MCPTransport = "http"
)

// SecretsWhere is where Wisp keeps the secrets of its settings (SecretStore.Where).
type SecretsWhere string

// Where secrets are kept.
const (
	SecretsInKeyring SecretsWhere = "keyring" // the desktop's keyring (the Secret Service)
	SecretsInFile    SecretsWhere = "file"    // the config file, mode 0600
)
