package wire

import (
	"encoding/json"
	"fmt"
	"regexp"
	"time"

	"github.com/wispapp/wisp/internal/jsonlist"
)

// DefaultTitle is a conversation's title until one is generated or chosen.
const DefaultTitle = "New Chat"

// Conversation is a conversation as the API shows it (Eliza's shape, ISO times).
type Conversation struct {
	ID        string          `json:"id"`
	Title     string          `json:"title"`
	RoomID    string          `json:"roomId"`
	CreatedAt string          `json:"createdAt"`
	UpdatedAt string          `json:"updatedAt"`
	Metadata  json.RawMessage `json:"metadata,omitempty" ts:"object"`
	// Unread marks a proactive message no client has seen yet.
	Unread bool `json:"unread"`
}

// Message is a chat message. An assistant reply's Text is the trail users saw live.
type Message struct {
	ID                    string    `json:"id"`
	Role                  Role      `json:"role"`
	Text                  string    `json:"text"`
	Timestamp             int64     `json:"timestamp"`
	Source                string    `json:"source,omitempty"`
	RunID                 string    `json:"runId,omitempty"`
	Status                RunStatus `json:"status,omitempty"`
	Error                 string    `json:"error,omitempty"`
	ActionCallbackHistory []string  `json:"actionCallbackHistory,omitempty"`
	// ReminderID and Late describe a delivered reminder (source "reminder").
	ReminderID string `json:"reminderId,omitempty"`
	Late       bool   `json:"late,omitempty"`
	// The message's place in its conversation's tree (docs/chat.md#branches):
	// ParentID is the message it follows (null for the first), SiblingIDs the
	// messages sharing that parent, oldest first and itself included, SiblingIndex
	// its own index among them, Depth its index on its branch (0 for the first).
	ParentID     *string  `json:"parentId"`
	SiblingIDs   []string `json:"siblingIds"`
	SiblingIndex int      `json:"siblingIndex"`
	Depth        int      `json:"depth"`
	// Usage is what an assistant reply cost, when its provider said (docs/usage.md).
	Usage *MessageUsage `json:"usage,omitempty"`
	// Attachments are the files a user message carries, in the order attached.
	Attachments []Attachment `json:"attachments,omitempty"`
}

// DisplayMessage is a UI row of a conversation (seed 002).
type DisplayMessage struct {
	ID             string             `json:"id"`
	ConversationID string             `json:"conversationId"`
	RunID          string             `json:"runId,omitempty"`
	MessageType    DisplayMessageType `json:"messageType"`
	ContentType    DisplayContentType `json:"contentType"`
	Content        json.RawMessage    `json:"content" ts:"object"`
	Status         ToolCallStatus     `json:"status,omitempty"`
	ToolCallID     string             `json:"toolCallId,omitempty"`
	CreatedAt      int64              `json:"createdAt"`
	UpdatedAt      int64              `json:"updatedAt"`
}

// RunInfo is a run's record.
type RunInfo struct {
	ID             string    `json:"id"`
	ConversationID string    `json:"conversationId,omitempty"`
	UserMessageID  string    `json:"userMessageId,omitempty"`
	Status         RunStatus `json:"status"`
	Error          string    `json:"error,omitempty"`
	StartedAt      int64     `json:"startedAt"`
	EndedAt        int64     `json:"endedAt,omitempty"`
}

// Snapshot is a conversation as a client renders it after a reload or a resync (seed
// 001): Status is active, paused, ended or failed; a client resumes ActiveRun's
// stream after StreamSequence.
type Snapshot struct {
	Messages       []Message `json:"messages"`
	ActiveRun      *RunInfo  `json:"activeRun,omitempty"`
	StreamSequence int64     `json:"streamSequence"`
	Status         RunStatus `json:"status"`
}

// SendResult answers a chat message sent without streaming, once its run ended.
type SendResult struct {
	Text                  string    `json:"text"`
	AgentName             string    `json:"agentName"`
	RunID                 string    `json:"runId"`
	MessageID             string    `json:"messageId"`
	Usage                 Usage     `json:"usage"`
	ActionCallbackHistory []string  `json:"actionCallbackHistory"`
	Status                RunStatus `json:"status"` // ended or interrupted
	Error                 string    `json:"error,omitempty"`
}

// ProactiveMessage is the message of a proactive-message frame (seed 004, plus
// reminderId and late for reminders).
type ProactiveMessage struct {
	ID         string `json:"id"`
	Role       Role   `json:"role"`
	Text       string `json:"text"`
	Timestamp  int64  `json:"timestamp"`
	Source     string `json:"source"`
	ReminderID string `json:"reminderId,omitempty"`
	Late       *bool  `json:"late,omitempty"`
}

// Reminder is a reminder as the API shows it.
type Reminder struct {
	ID             string         `json:"id"`
	ConversationID *string        `json:"conversationId"`
	Text           string         `json:"text"`
	At             string         `json:"at"`
	CreatedAt      string         `json:"createdAt"`
	Status         ReminderStatus `json:"status"`
	DeliveredAt    string         `json:"deliveredAt,omitempty"`
	Late           bool           `json:"late"`
	MessageID      string         `json:"messageId,omitempty"`
}

// AutonomyState is the autonomy loop's settings and progress.
type AutonomyState struct {
	Enabled      bool  `json:"enabled"`
	IntervalMs   int64 `json:"intervalMs"`
	MaxPerHour   int   `json:"maxPerHour"`
	CooldownMs   int64 `json:"cooldownMs"`
	SentLastHour int   `json:"sentLastHour"`
	LastTickAt   int64 `json:"lastTickAt,omitempty"`
	NextTickAt   int64 `json:"nextTickAt,omitempty"`
}

// Status is the agent's state: GET /api/status, and the body of a status frame.
type Status struct {
	State            AppState `json:"state"`
	AgentName        string   `json:"agentName"`
	Model            string   `json:"model"`
	Provider         string   `json:"provider"`
	CanRespond       bool     `json:"canRespond"`
	CanRespondReason string   `json:"canRespondReason,omitempty"`
	StartedAt        int64    `json:"startedAt"`
	Uptime           int64    `json:"uptime"`
	// RestartState is left out (nil) of the first status frame a client gets.
	*RestartState
	// ConfigError says why the config file on disk is not in use (the last good one is).
	ConfigError string `json:"configError,omitempty"`
	// AutonomyEnabled says whether the autonomy loop is on.
	AutonomyEnabled bool `json:"autonomyEnabled"`
	// Confinement says how far the agent's commands and MCP servers are confined:
	// "full", "partial" or "none" (docs/confinement.md); ConfinementReason says why,
	// in words for the user.
	Confinement       Confinement `json:"confinement"`
	ConfinementReason string      `json:"confinementReason"`
}

// RestartState says whether settings wait for a restart, and which.
type RestartState struct {
	PendingRestart        bool     `json:"pendingRestart"`
	PendingRestartReasons []string `json:"pendingRestartReasons"`
}

// NewRestartState is the restart state of these pending reasons.
func NewRestartState(reasons []string) *RestartState {
	return &RestartState{PendingRestart: len(reasons) > 0, PendingRestartReasons: jsonlist.NonNil(reasons)}
}

// The streams an envelope may be published on.
const (
	StreamSystem    = "system"
	StreamAutonomy  = "autonomy"
	StreamAssistant = "assistant"
	StreamAction    = "action"
	StreamTerminal  = "terminal"
	StreamChat      = "chat"
)

// Streams are the stream names a client may publish on.
var Streams = []string{StreamSystem, StreamAutonomy, StreamAssistant, StreamAction, StreamTerminal, StreamChat}

// TurnHeartbeat is the payload of a chat turn's heartbeat_event: thinking when it
// starts, replying at its first text, then sent or failed.
type TurnHeartbeat struct {
	TS             int64      `json:"ts"`
	Status         TurnStatus `json:"status"`
	To             string     `json:"to"`
	Preview        string     `json:"preview"`
	DurationMs     int64      `json:"durationMs"`
	HasMedia       bool       `json:"hasMedia"`
	ConversationID string     `json:"conversationId"`
	RunID          string     `json:"runId"`
}

// AutonomyPayload is the payload of an autonomy tick's agent_event on the autonomy
// stream; Kind says which fields it has.
type AutonomyPayload struct {
	Kind     string `json:"kind"`               // tick | thought | decision | skipped | error
	Tick     int    `json:"tick,omitempty"`     // tick
	Text     string `json:"text,omitempty"`     // thought
	Decision string `json:"decision,omitempty"` // decision: speak | silent
	Reason   string `json:"reason,omitempty"`   // decision (silent), skipped
	Message  string `json:"message,omitempty"`  // error
}

// AssistantPayload is the payload of an agent_event on the assistant stream: text
// Wisp says, delivered as a proactive message.
type AssistantPayload struct {
	Text   string `json:"text"`
	Source string `json:"source,omitempty"`
}

// ClientIDPattern is what a client id (/ws ?clientId=, a terminal run's clientId)
// must match.
const ClientIDPattern = `^[A-Za-z0-9._-]{1,128}$`

var clientID = regexp.MustCompile(ClientIDPattern)

// ValidClientID reports whether id is a well-formed client id.
func ValidClientID(id string) bool { return clientID.MatchString(id) }

// ISOTime is how the API writes a time: ISO 8601 in UTC, with milliseconds.
func ISOTime(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000Z") }

// JSON encodes a value built of this package's shapes, maps and plain values, which
// always encode.
func JSON(v any) json.RawMessage {
	data, err := json.Marshal(v)
	if err != nil {
		panic(fmt.Sprintf("wire: encode %T: %v", v, err))
	}
	return data
}
