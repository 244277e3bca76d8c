package wire

import "encoding/json"

// Approval is the user's yes or no to one shell command the agent asked to run, one
// MCP tool it asked to call, or one note it proposed to remember (docs/approvals.md,
// docs/memory.md): on every approvals route and frame. Kind says which; the fields of the other kind are empty (arguments and
// annotations null). An MCP call's base (bases and grantable) is "server.tool".
type Approval struct {
	ID             string `json:"id"`
	RunID          string `json:"runId"`
	ConversationID string `json:"conversationId"`
	// MessageID is the user message the run answers: the branch the approval is on
	// (docs/chat.md#branches).
	MessageID string       `json:"messageId,omitempty"`
	CallID    string       `json:"callId"`
	ToolName  string       `json:"toolName"`
	Command   string       `json:"command"`
	Cwd       string       `json:"cwd"`
	Reason    string       `json:"reason"`
	Bases     []string     `json:"bases"`
	Grantable []string     `json:"grantable"`
	AlwaysAsk []string     `json:"alwaysAsk"`
	Kind      ApprovalKind `json:"kind"`
	// MCP: the server, the tool, what the model passes it, and what the server says of it.
	Server          string           `json:"server"`
	Tool            string           `json:"tool"`
	Arguments       json.RawMessage  `json:"arguments"`
	Annotations     *ToolAnnotations `json:"annotations"`
	ToolTitle       string           `json:"toolTitle"`
	ToolDescription string           `json:"toolDescription"`
	// Text is what a REMEMBER proposes to save (kind memory); once approved with the
	// user's edit, that edit.
	Text string `json:"text"`
	// Web: the page to fetch (its base is its site, "example.com").
	URL string `json:"url"`
	// Files: the file, the folder of files.roots it is under (the base), and for an
	// edit or a write the unified diff it makes.
	Path string `json:"path"`
	Root string `json:"root"`
	Diff string `json:"diff"`
	// Schedule is, for a task the agent would schedule (kind task, the prompt in
	// Text), when it runs, in words.
	Schedule  string            `json:"schedule"`
	Status    ApprovalStatus    `json:"status"`
	Decision  *ApprovalDecision `json:"decision"`
	Note      string            `json:"note"`
	CreatedAt string            `json:"createdAt"`
	DecidedAt *string           `json:"decidedAt"`
}

// ToolAnnotations are what an MCP server says of a tool: hints for the user, never a
// reason to skip asking.
type ToolAnnotations struct {
	Title           string `json:"title,omitempty"`
	ReadOnlyHint    *bool  `json:"readOnlyHint,omitempty"`
	DestructiveHint *bool  `json:"destructiveHint,omitempty"`
	IdempotentHint  *bool  `json:"idempotentHint,omitempty"`
	OpenWorldHint   *bool  `json:"openWorldHint,omitempty"`
}

// Grant lets the agent run one base command (kind shell) or call one MCP tool
// (kind mcp, base "server.tool") without asking.
type Grant struct {
	ID        string       `json:"id"`
	Kind      ApprovalKind `json:"kind"`
	Base      string       `json:"base"`
	CreatedAt string       `json:"createdAt"`
}

// /ws frames of approvals, and the chat stream frames of pauses and tool status.
const (
	TypeApprovalRequested = "approval-requested"
	TypeApprovalDecided   = "approval-decided"

	TypeToolStatus   = "tool_status"
	TypeRunPaused    = "run_paused"
	TypeRunResumed   = "run_resumed"
	TypeStreamResync = "stream_resync"
)

// ApprovalChanged is approval-requested (a run waits for the user) or
// approval-decided (somebody decided, or the run was stopped).
type ApprovalChanged struct {
	Head
	Approval Approval `json:"approval"`
}

// NewApprovalRequested is an approval-requested frame.
func NewApprovalRequested(a Approval) ApprovalChanged {
	return ApprovalChanged{Head{TypeApprovalRequested}, a}
}

// NewApprovalDecided is an approval-decided frame.
func NewApprovalDecided(a Approval) ApprovalChanged {
	return ApprovalChanged{Head{TypeApprovalDecided}, a}
}

// ToolStatus is a change in an action call's status (seed 002's lifecycle).
type ToolStatus struct {
	Head
	CallID        string         `json:"callId"`
	Name          string         `json:"name"`
	Status        ToolCallStatus `json:"status"`
	TerminalRunID string         `json:"terminalRunId,omitempty"`
}

// NewToolStatus is a tool_status frame.
func NewToolStatus(callID, name, status, terminalRunID string) ToolStatus {
	return ToolStatus{Head{TypeToolStatus}, callID, name, ToolCallStatus(status), terminalRunID}
}

// RunPaused says the run waits for the user before an action runs (seed 001).
type RunPaused struct {
	Head
	Reason            string          `json:"reason"`
	PendingToolName   string          `json:"pendingToolName"`
	PendingToolCallID string          `json:"pendingToolCallId"`
	ApprovalID        string          `json:"approvalId"`
	Approval          json.RawMessage `json:"approval"`
}

// NewRunPaused is a run_paused frame; approval is the Approval's JSON.
func NewRunPaused(reason, toolName, callID, approvalID string, approval json.RawMessage) RunPaused {
	return RunPaused{Head{TypeRunPaused}, reason, toolName, callID, approvalID, approval}
}

// RunResumed says the user decided and the run goes on.
type RunResumed struct {
	Head
	ApprovalID string           `json:"approvalId"`
	Decision   ApprovalDecision `json:"decision"`
}

// NewRunResumed is a run_resumed frame.
func NewRunResumed(approvalID, decision string) RunResumed {
	return RunResumed{Head{TypeRunResumed}, approvalID, ApprovalDecision(decision)}
}

// StreamResync tells a client to reload the conversation (its snapshot) and go on
// from FromSequence: the run was cut short by a crash (seed 001).
type StreamResync struct {
	Head
	Reason       string `json:"reason"`
	FromSequence int64  `json:"fromSequence"`
	MessageCount int    `json:"messageCount"`
}

// NewStreamResync is a stream_resync frame.
func NewStreamResync(reason string, from int64, messages int) StreamResync {
	return StreamResync{Head{TypeStreamResync}, reason, from, messages}
}

func exampleApproval(decided bool) Approval {
	a := Approval{ID: "ap_1", RunID: exRun, ConversationID: exConv, MessageID: "m1", CallID: exCallID, ToolName: "RUN_SHELL",
		Command: "git status && rm -rf build", Cwd: "/home/ada/src/wisp", Reason: "See what changed, then clean",
		Bases: []string{"git", "rm"}, Grantable: []string{"rm"}, AlwaysAsk: []string{}, Kind: KindShell,
		Arguments: json.RawMessage("null"), Status: ApprovalPending, Note: "", CreatedAt: exISO}
	if decided {
		d, at := DecisionDeny, "2025-11-21T09:01:00.000Z"
		a.Status, a.Decision, a.Note, a.DecidedAt = ApprovalDenied, &d, "not the build folder", &at
		a.Grantable, a.AlwaysAsk = []string{}, []string{"sudo changes the user a command runs as"}
	}
	return a
}

// exampleMCPApproval is an approval of an MCP tool call.
func exampleMCPApproval() Approval {
	yes, no := true, false
	return Approval{ID: "ap_2", RunID: exRun, ConversationID: exConv, MessageID: "m1", CallID: "call_2", ToolName: "github__create_issue",
		Bases: []string{"github.create_issue"}, Grantable: []string{"github.create_issue"}, AlwaysAsk: []string{},
		Kind: KindMCP, Server: "github", Tool: "create_issue", Arguments: json.RawMessage(`{"repo":"wisp","title":"Crash on start"}`),
		Annotations: &ToolAnnotations{Title: "Create an issue", ReadOnlyHint: &no, DestructiveHint: &no, IdempotentHint: &no, OpenWorldHint: &yes},
		ToolTitle:   "Create an issue", ToolDescription: "Opens an issue in a repository", Status: ApprovalPending, CreatedAt: exISO}
}

// approvalExamples are the approval frames, for Examples.
func approvalExamples() []Frame {
	pending, _ := json.Marshal(exampleApproval(false))
	return []Frame{
		NewApprovalRequested(exampleApproval(false)), NewApprovalDecided(exampleApproval(true)),
		NewApprovalRequested(exampleMCPApproval()), NewApprovalRequested(exampleMemoryApproval()),
		NewApprovalRequested(exampleWebApproval()), NewApprovalRequested(exampleFileEditApproval()),
		NewApprovalRequested(exampleTaskApproval()),
		NewToolStatus(exCallID, "RUN_SHELL", "waiting", ""),
		NewToolStatus(exCallID, "RUN_SHELL", "executing", "run-1763715600000-a1b2c3"),
		NewRunPaused("waiting for the user's approval", "RUN_SHELL", exCallID, "ap_1", pending),
		NewRunResumed("ap_1", "approve"),
		NewStreamResync("crash_recovery", 41, 41),
	}
}
