package wire

// The bodies of the HTTP API's answers that wrap a shape in a named field (an
// envelope such as {"conversations": […]}) or say only that a request worked. Every
// body the API sends the UI is a named struct of this package (or, for the settings,
// terminal and emote routes, of the package that owns the shape), never a map.

// OK answers a request that has nothing else to say: {"ok": true}.
type OK struct {
	OK bool `json:"ok"`
}

// Okay is {"ok": true}.
var Okay = OK{OK: true}

// ErrorBody is the body of every failed request: {"error": "…"}.
type ErrorBody struct {
	Error string `json:"error"`
}

// ConversationList answers GET /api/conversations.
type ConversationList struct {
	Conversations []Conversation `json:"conversations"`
}

// ConversationBody answers the routes that create, read or change one conversation.
type ConversationBody struct {
	Conversation Conversation `json:"conversation"`
}

// MessageList answers GET /api/conversations/{id}/messages and PUT …/branch: a page
// of the conversation's active branch, oldest first (docs/chat.md#branches).
type MessageList struct {
	Messages []Message `json:"messages"`
	// HasOlder and HasNewer say whether the branch goes on before the page's first
	// message and after its last one; BranchLength is how many messages it has.
	HasOlder     bool `json:"hasOlder"`
	HasNewer     bool `json:"hasNewer"`
	BranchLength int  `json:"branchLength"`
	// DisplayMessages are the display rows (seed 002) of the runs of the page's
	// messages, oldest first: what the page needs to show its tool cards.
	DisplayMessages []DisplayMessage `json:"displayMessages"`
	// Summaries are the summaries (but undone ones) whose last message is on the
	// page, oldest first: each is shown after its message (docs/context.md).
	Summaries []Summary `json:"summaries"`
}

// DisplayMessageList answers GET /api/conversations/{id}/display-messages.
type DisplayMessageList struct {
	DisplayMessages []DisplayMessage `json:"displayMessages"`
}

// Truncated answers a truncation of a conversation: how many messages went.
type Truncated struct {
	OK           bool  `json:"ok"`
	DeletedCount int64 `json:"deletedCount"`
}

// Published answers POST /api/agent/events: the id the event was numbered with.
type Published struct {
	OK      bool   `json:"ok"`
	EventID string `json:"eventId"`
}

// RunBody answers GET /api/runs/{id}.
type RunBody struct {
	Run RunInfo `json:"run"`
}

// ApprovalList answers GET /api/approvals.
type ApprovalList struct {
	Approvals []Approval `json:"approvals"`
}

// ApprovalBody answers a decision on an approval.
type ApprovalBody struct {
	Approval Approval `json:"approval"`
}

// ApprovalConflict answers (409) a decision on an approval somebody else decided
// first: the decision that stands, and the approval.
type ApprovalConflict struct {
	Error    string            `json:"error"`
	Decision *ApprovalDecision `json:"decision"`
	Approval Approval          `json:"approval"`
}

// GrantList answers GET /api/grants.
type GrantList struct {
	Grants []Grant `json:"grants"`
}

// MCPServerList answers GET /api/mcp/servers.
type MCPServerList struct {
	Servers []MCPServer `json:"servers"`
}

// MCPServerBody answers a restart or a change of one MCP server.
type MCPServerBody struct {
	Server MCPServer `json:"server"`
}

// ReminderList answers GET /api/reminders.
type ReminderList struct {
	Reminders []Reminder `json:"reminders"`
}

// TerminalStarted answers POST /api/terminal/run without capture: the run's id.
type TerminalStarted struct {
	OK    bool   `json:"ok"`
	RunID string `json:"runId"`
}

// Bodies are the API's answers of this package that are not in ShapeExamples (their
// fields are), for the TypeScript generator: zero values.
func Bodies() []any {
	return []any{OK{}, ErrorBody{}, ConversationList{}, ConversationBody{}, MessageList{}, DisplayMessageList{}, Truncated{},
		Published{}, ApprovalList{}, ApprovalBody{}, ApprovalConflict{}, GrantList{}, MCPServerList{}, MCPServerBody{},
		ReminderList{}, TerminalStarted{}, RunBody{}, SummaryRun{}, SummaryBody{}, AttachmentCreated{},
		Avatar{}, SpeechBody{}, ExpressionBody{}, Transcription{}, VoiceStatus{}, TaskList{}, TaskBody{},
		FileEditList{}, FileEditBody{}}
}
