package wire

import (
	"encoding/json"

	"github.com/wispapp/wisp/internal/jsonlist"
)

// The frame catalog: every frame Wisp's server sends on /ws and in a chat SSE stream,
// and every frame a client may send on /ws. Each is a struct that embeds Head, with its
// type constant and a constructor; Catalog lists them all.

// Frame is a message on the wire. Only types that embed Head are frames.
type Frame interface {
	FrameType() string
	head() Head
}

// Head is the "type" every frame starts with.
type Head struct {
	Type string `json:"type"`
}

// FrameType is the frame's "type".
func (h Head) FrameType() string { return h.Type }
func (h Head) head() Head        { return h }

// Events is the one sink producers publish frames to: chat, reminders and autonomy,
// the terminal, the config watcher and emotes. app/ fans each frame out to the hub
// (and its journal) and to the services that follow it. Publish never blocks.
type Events interface {
	Publish(Frame)
}

// /ws, server to client.
const (
	TypeStatus                = "status"
	TypeAgentEvent            = "agent_event"
	TypeHeartbeatEvent        = "heartbeat_event"
	TypeTrainingEvent         = "training_event"
	TypePong                  = "pong"
	TypeAuthOK                = "auth-ok"
	TypeError                 = "error"
	TypeConversationUpdated   = "conversation-updated"
	TypeConversationBranch    = "conversation-branch"
	TypeDisplayMessageSaved   = "display-message-saved"
	TypeDisplayMessageUpdated = "display-message-updated"
	TypeTerminalOutput        = "terminal-output"
	TypeEmote                 = "emote"
	TypeRestartRequired       = "restart-required"
	TypeConfigError           = "config-error"
	TypeConfigChanged         = "config-changed"
	TypeProactiveMessage      = "proactive-message"
	TypeReminderUpdated       = "reminder-updated"
	TypeReminderDeleted       = "reminder-deleted"
	TypeReplayTruncated       = "replay-truncated"
)

// StatusFrame is the agent's state: sent when a client connects (without the restart
// fields, seed 004), every 5 s and whenever it changes.
type StatusFrame struct {
	Head
	Status
}

// NewStatus is a status frame.
func NewStatus(s Status) StatusFrame { return StatusFrame{Head{TypeStatus}, s} }

// Envelope is a buffered event (seed 004's StreamEventEnvelope): agent_event,
// heartbeat_event or training_event. The hub numbers it (eventId), stamps its time,
// keeps it for replay and persists it.
type Envelope struct {
	Head
	Version    int             `json:"version"`
	EventID    string          `json:"eventId"`
	TS         int64           `json:"ts"`
	RunID      string          `json:"runId,omitempty"`
	Seq        *int64          `json:"seq,omitempty"`
	Stream     string          `json:"stream,omitempty"`
	SessionKey string          `json:"sessionKey,omitempty"`
	AgentID    string          `json:"agentId,omitempty"`
	RoomID     string          `json:"roomId,omitempty"`
	Payload    json.RawMessage `json:"payload" ts:"object"`
}

// NewEnvelope is a buffered event of a kind (TypeAgentEvent, TypeHeartbeatEvent or
// TypeTrainingEvent) on a stream.
func NewEnvelope(kind, stream string, payload json.RawMessage) Envelope {
	return Envelope{Head: Head{kind}, Stream: stream, Payload: payload}
}

// NewTurnHeartbeat is the heartbeat_event a chat turn publishes as it goes.
func NewTurnHeartbeat(p TurnHeartbeat) Envelope {
	return NewEnvelope(TypeHeartbeatEvent, StreamChat, JSON(p))
}

// NewRunEvent is an agent_event of one numbered run (an autonomy tick), on a stream.
func NewRunEvent(runID string, seq int64, stream string, payload any) Envelope {
	e := NewEnvelope(TypeAgentEvent, stream, JSON(payload))
	e.RunID, e.Seq = runID, &seq
	return e
}

// IsBuffered reports whether frames of this type are envelopes.
func IsBuffered(typ string) bool {
	return typ == TypeAgentEvent || typ == TypeHeartbeatEvent || typ == TypeTrainingEvent
}

// Pong answers a ping.
type Pong struct{ Head }

// NewPong is a pong.
func NewPong() Pong { return Pong{Head{TypePong}} }

// AuthOK accepts a socket's auth frame.
type AuthOK struct{ Head }

// NewAuthOK is an auth-ok.
func NewAuthOK() AuthOK { return AuthOK{Head{TypeAuthOK}} }

// SocketError tells a client that its frame was refused, and why.
type SocketError struct {
	Head
	Message string `json:"message"`
}

// NewSocketError is an error frame.
func NewSocketError(msg string) SocketError { return SocketError{Head{TypeError}, msg} }

// ConversationUpdated: a conversation was renamed, titled, or got or lost its unread
// mark.
type ConversationUpdated struct {
	Head
	Conversation Conversation `json:"conversation"`
}

// NewConversationUpdated is a conversation-updated frame.
func NewConversationUpdated(c Conversation) ConversationUpdated {
	return ConversationUpdated{Head{TypeConversationUpdated}, c}
}

// ConversationBranch: another branch of a conversation became the one shown: every
// window showing it reloads its messages (GET …/messages). LeafID is the last
// message of the branch now active.
type ConversationBranch struct {
	Head
	ConversationID string `json:"conversationId"`
	LeafID         string `json:"leafId"`
}

// NewConversationBranch is a conversation-branch frame.
func NewConversationBranch(convID, leafID string) ConversationBranch {
	return ConversationBranch{Head{TypeConversationBranch}, convID, leafID}
}

// DisplayMessageChanged: a display message (seed 002) was saved or updated.
type DisplayMessageChanged struct {
	Head
	ConversationID string         `json:"conversationId"`
	Message        DisplayMessage `json:"message"`
}

// NewDisplayMessageSaved is a display-message-saved frame.
func NewDisplayMessageSaved(m DisplayMessage) DisplayMessageChanged {
	return DisplayMessageChanged{Head{TypeDisplayMessageSaved}, m.ConversationID, m}
}

// NewDisplayMessageUpdated is a display-message-updated frame.
func NewDisplayMessageUpdated(m DisplayMessage) DisplayMessageChanged {
	return DisplayMessageChanged{Head{TypeDisplayMessageUpdated}, m.ConversationID, m}
}

// TerminalEvent is what a terminal-output frame reports.
type TerminalEvent string

// The terminal events, in the order a run produces them.
const (
	TerminalStart   TerminalEvent = "start"
	TerminalStdout  TerminalEvent = "stdout"
	TerminalStderr  TerminalEvent = "stderr"
	TerminalTimeout TerminalEvent = "timeout"
	TerminalExit    TerminalEvent = "exit"
	TerminalError   TerminalEvent = "error"
)

// TerminalOutput is one event of a shell run. Only the fields of its event are sent
// (AppendJSON): command and maxDurationMs at the start, maxDurationMs at a timeout,
// code at the exit, data otherwise. Seq numbers a run's events from 1.
type TerminalOutput struct {
	Head
	RunID         string        `json:"runId"`
	Event         TerminalEvent `json:"event"`
	Seq           int64         `json:"seq"`
	Command       string        `json:"command,omitempty"`
	MaxDurationMs int64         `json:"maxDurationMs,omitempty"`
	Code          int           `json:"code,omitempty"`
	Data          string        `json:"data,omitempty"`
	// Owner is the client id whose sockets see the run; "" (a run of the agent's) is
	// seen by every client. It is not sent.
	Owner string `json:"-"`
}

// NewTerminalOutput is a terminal-output frame; set the fields of its event.
func NewTerminalOutput(runID, owner string, seq int64, ev TerminalEvent) TerminalOutput {
	return TerminalOutput{Head: Head{TypeTerminalOutput}, RunID: runID, Owner: owner, Seq: seq, Event: ev}
}

// Emote plays an emote on every client's avatar (seed 004).
type Emote struct {
	Head
	EmoteID  string  `json:"emoteId"`
	GLBPath  string  `json:"glbPath"`
	Duration float64 `json:"duration"` // seconds
	Loop     bool    `json:"loop"`
}

// NewEmote is an emote frame.
func NewEmote(id, glbPath string, duration float64, loop bool) Emote {
	return Emote{Head{TypeEmote}, id, glbPath, duration, loop}
}

// RestartRequired lists every pending restart reason.
type RestartRequired struct {
	Head
	Reasons []string `json:"reasons"`
}

// NewRestartRequired is a restart-required frame.
func NewRestartRequired(reasons []string) RestartRequired {
	return RestartRequired{Head{TypeRestartRequired}, jsonlist.NonNil(reasons)}
}

// ConfigError says why the config file on disk is not used (the last good one is).
type ConfigError struct {
	Head
	Message string `json:"message"`
}

// NewConfigError is a config-error frame.
func NewConfigError(msg string) ConfigError { return ConfigError{Head{TypeConfigError}, msg} }

// ConfigChanged lists the settings a change applied live.
type ConfigChanged struct {
	Head
	Paths []string `json:"paths"`
}

// NewConfigChanged is a config-changed frame.
func NewConfigChanged(paths []string) ConfigChanged {
	return ConfigChanged{Head{TypeConfigChanged}, jsonlist.NonNil(paths)}
}

// Proactive is something Wisp said on its own, saved in a conversation.
type Proactive struct {
	Head
	ConversationID string           `json:"conversationId"`
	Message        ProactiveMessage `json:"message"`
}

// NewProactive is a proactive-message frame.
func NewProactive(convID string, m ProactiveMessage) Proactive {
	return Proactive{Head{TypeProactiveMessage}, convID, m}
}

// ReminderUpdated: a reminder was set or delivered.
type ReminderUpdated struct {
	Head
	Reminder Reminder `json:"reminder"`
}

// NewReminderUpdated is a reminder-updated frame.
func NewReminderUpdated(r Reminder) ReminderUpdated {
	return ReminderUpdated{Head{TypeReminderUpdated}, r}
}

// ReminderDeleted: a reminder was deleted.
type ReminderDeleted struct {
	Head
	ID string `json:"id"`
}

// NewReminderDeleted is a reminder-deleted frame.
func NewReminderDeleted(id string) ReminderDeleted {
	return ReminderDeleted{Head{TypeReminderDeleted}, id}
}

// ReplayTruncated tells a client that reconnected after lastEventId that the replay
// window no longer holds every envelope after it (the oldest it holds is
// oldestEventId): the client missed events and reloads what it shows.
type ReplayTruncated struct {
	Head
	LastEventID   string `json:"lastEventId"`
	OldestEventID string `json:"oldestEventId"`
}

// NewReplayTruncated is a replay-truncated frame.
func NewReplayTruncated(lastEventID, oldestEventID string) ReplayTruncated {
	return ReplayTruncated{Head{TypeReplayTruncated}, lastEventID, oldestEventID}
}

// Chat SSE (the dashboard dialect of docs/chat.md), server to client. Each is the
// JSON of one `data:` line; the frame's run sequence number is its `id:`.
const (
	TypeToken     = "token"
	TypeThinking  = "thinking"
	TypeToolStart = "tool_start"
	TypeToolEnd   = "tool_end"
	TypeDone      = "done"
	TypeChatError = "error"
	TypeReply     = "reply" // the delta dialect only
)

// Token is more visible reply: model text (Text is the delta) or, with Callback, an
// action's status line (Text is the whole reply). FullText is always the whole reply.
// The hot path writes it with AppendToken.
type Token struct {
	Head
	Text     string `json:"text"`
	FullText string `json:"fullText"`
	Callback bool   `json:"callback,omitempty"`
}

// NewToken is a token frame.
func NewToken(text, fullText string, callback bool) Token {
	return Token{Head{TypeToken}, text, fullText, callback}
}

// TokenDelta is the delta dialect's token frame: model text appended to segment
// Segment of the reply (Text is the delta) or, with Callback, an action's status
// replacing that segment's text (Text is the segment's new text). Segment 0 is left
// out. The hot path writes it with AppendTokenDelta.
type TokenDelta struct {
	Head
	Text     string `json:"text"`
	Segment  int    `json:"segment,omitempty"`
	Callback bool   `json:"callback,omitempty"`
}

// NewTokenDelta is a delta-dialect token frame.
func NewTokenDelta(text string, segment int, callback bool) TokenDelta {
	return TokenDelta{Head{TypeToken}, text, segment, callback}
}

// Reply is the delta dialect's reply so far, sent once when a stream resumes: every
// segment's text, and the visible reply they make.
type Reply struct {
	Head
	Segments []string `json:"segments"`
	FullText string   `json:"fullText"`
}

// NewReply is a reply frame.
func NewReply(segments []string, fullText string) Reply {
	return Reply{Head{TypeReply}, jsonlist.NonNil(segments), fullText}
}

// Thinking is more of the model's reasoning; one with Complete set (and no text)
// closes the step's reasoning.
type Thinking struct {
	Head
	Text     string `json:"text"`
	Complete bool   `json:"complete,omitempty"`
}

// NewThinking is a thinking frame.
func NewThinking(text string, complete bool) Thinking {
	return Thinking{Head{TypeThinking}, text, complete}
}

// ToolStart: an action was called.
type ToolStart struct {
	Head
	CallID    string          `json:"callId"`
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments,omitempty"`
}

// NewToolStart is a tool_start frame.
func NewToolStart(callID, name string, args json.RawMessage) ToolStart {
	return ToolStart{Head{TypeToolStart}, callID, name, args}
}

// ToolEnd: an action returned its result, or failed with its error.
type ToolEnd struct {
	Head
	CallID string  `json:"callId"`
	Name   string  `json:"name"`
	Result *string `json:"result,omitempty"`
	Error  *string `json:"error,omitempty"`
}

// NewToolEnd is a tool_end frame: with its error when errMsg is set, else with its
// result (which may be empty).
func NewToolEnd(callID, name, result, errMsg string) ToolEnd {
	if errMsg != "" {
		return ToolEnd{Head{TypeToolEnd}, callID, name, nil, &errMsg}
	}
	return ToolEnd{Head{TypeToolEnd}, callID, name, &result, nil}
}

// Done ends a reply that finished.
type Done struct {
	Head
	FullText              string   `json:"fullText"`
	AgentName             string   `json:"agentName"`
	RunID                 string   `json:"runId"`
	MessageID             string   `json:"messageId"`
	ActionCallbackHistory []string `json:"actionCallbackHistory"`
	Usage                 Usage    `json:"usage"`
}

// NewDone is a done frame.
func NewDone(fullText, agentName, runID, messageID string, history []string, usage Usage) Done {
	return Done{Head{TypeDone}, fullText, agentName, runID, messageID, jsonlist.NonNil(history), usage}
}

// ChatError ends a reply that failed or was interrupted (or, when Recoverable,
// reports a failure the reply goes on after).
type ChatError struct {
	Head
	Message     string `json:"message"`
	Recoverable bool   `json:"recoverable"`
	Interrupted bool   `json:"interrupted,omitempty"`
}

// NewChatError is an SSE error frame.
func NewChatError(msg string, recoverable, interrupted bool) ChatError {
	return ChatError{Head{TypeChatError}, msg, recoverable, interrupted}
}

// /ws, client to server.
const (
	TypeAuth               = "auth"
	TypePing               = "ping"
	TypeActiveConversation = "active-conversation"
	TypeTerminalInput      = "terminal-input"
	TypeTerminalResize     = "terminal-resize"
)

// Auth is a socket's first frame when its upgrade carried no token.
type Auth struct {
	Head
	Token string `json:"token"`
}

// Ping asks for a pong.
type Ping struct{ Head }

// ActiveConversation says which conversation the client shows; anything but a
// string (null) clears it.
type ActiveConversation struct {
	Head
	ConversationID json.RawMessage `json:"conversationId"`
}

// TerminalInput is keystrokes for a run the client started.
type TerminalInput struct {
	Head
	RunID         string `json:"runId"`
	Data          string `json:"data"`
	TerminalToken string `json:"terminalToken,omitempty"`
}

// TerminalResize is a new size for a run's terminal.
type TerminalResize struct {
	Head
	RunID string `json:"runId"`
	Cols  int    `json:"cols"`
	Rows  int    `json:"rows"`
}

// Route is where a frame travels.
type Route string

// The routes of the catalog.
const (
	ToClient   Route = "ws"        // /ws, server to client
	ChatStream Route = "sse"       // chat SSE, server to client
	ChatDelta  Route = "sse-delta" // chat SSE in the delta dialect: the frames that differ
	FromClient Route = "client"    // /ws, client to server
)

// Spec is one entry of the catalog: a frame type, its route and its Go shape.
type Spec struct {
	Type  string
	Route Route
	Shape Frame // a zero value of the frame's struct
}

// Catalog is every frame on the wire.
var Catalog = []Spec{
	{TypeStatus, ToClient, StatusFrame{}},
	{TypeAgentEvent, ToClient, Envelope{}},
	{TypeHeartbeatEvent, ToClient, Envelope{}},
	{TypeTrainingEvent, ToClient, Envelope{}},
	{TypePong, ToClient, Pong{}},
	{TypeAuthOK, ToClient, AuthOK{}},
	{TypeError, ToClient, SocketError{}},
	{TypeConversationUpdated, ToClient, ConversationUpdated{}},
	{TypeConversationBranch, ToClient, ConversationBranch{}},
	{TypeDisplayMessageSaved, ToClient, DisplayMessageChanged{}},
	{TypeDisplayMessageUpdated, ToClient, DisplayMessageChanged{}},
	{TypeTerminalOutput, ToClient, TerminalOutput{}},
	{TypeEmote, ToClient, Emote{}},
	{TypeRestartRequired, ToClient, RestartRequired{}},
	{TypeConfigError, ToClient, ConfigError{}},
	{TypeConfigChanged, ToClient, ConfigChanged{}},
	{TypeProactiveMessage, ToClient, Proactive{}},
	{TypeReminderUpdated, ToClient, ReminderUpdated{}},
	{TypeReminderDeleted, ToClient, ReminderDeleted{}},
	{TypeTaskUpdated, ToClient, TaskUpdated{}},
	{TypeTaskDeleted, ToClient, TaskDeleted{}},
	{TypeReplayTruncated, ToClient, ReplayTruncated{}},
	{TypeApprovalRequested, ToClient, ApprovalChanged{}},
	{TypeApprovalDecided, ToClient, ApprovalChanged{}},
	{TypeMCPServers, ToClient, MCPServers{}},
	{TypeMemoryUpdated, ToClient, MemoryUpdated{}},
	{TypeConversationSummary, ToClient, ConversationSummary{}},
	{TypeExpression, ToClient, Expression{}},
	{TypeAvatarChanged, ToClient, AvatarChanged{}},

	{TypeToken, ChatStream, Token{}},
	{TypeThinking, ChatStream, Thinking{}},
	{TypeToolStart, ChatStream, ToolStart{}},
	{TypeToolEnd, ChatStream, ToolEnd{}},
	{TypeDone, ChatStream, Done{}},
	{TypeChatError, ChatStream, ChatError{}},
	{TypeToolStatus, ChatStream, ToolStatus{}},
	{TypeRunPaused, ChatStream, RunPaused{}},
	{TypeRunResumed, ChatStream, RunResumed{}},
	{TypeStreamResync, ChatStream, StreamResync{}},
	{TypeCustom, ChatStream, Custom{}},
	{TypeStatePatch, ChatStream, StatePatch{}},
	{TypeSummaryStart, ChatStream, SummaryFrame{}},
	{TypeSummaryDelta, ChatStream, SummaryDelta{}},
	{TypeSummaryEnd, ChatStream, SummaryFrame{}},
	{TypeSpeech, ChatStream, Speech{}},

	{TypeToken, ChatDelta, TokenDelta{}},
	{TypeReply, ChatDelta, Reply{}},

	{TypeAuth, FromClient, Auth{}},
	{TypePing, FromClient, Ping{}},
	{TypeActiveConversation, FromClient, ActiveConversation{}},
	{TypeTerminalInput, FromClient, TerminalInput{}},
	{TypeTerminalResize, FromClient, TerminalResize{}},
}
