package archive

import "encoding/json"

// The export format's name, the version this Wisp writes, and the oldest it reads.
// Version 1 knew no branches: each conversation was one list of messages. Version 2
// gained messages' attachments (an optional field: a file without any is what it was).
const (
	FormatName    = "wisp-export"
	Version       = 2
	OldestVersion = 1
)

// Document is an export file. Times are ISO 8601 in UTC with milliseconds, as the
// API writes them (wire.ISOTime).
type Document struct {
	Format        string         `json:"format"`
	Version       int            `json:"version"`
	ExportedAt    string         `json:"exportedAt"`
	Conversations []Conversation `json:"conversations"`
}

// Conversation is one conversation with every record of it, each list in the order
// Wisp saved it. Its messages form a tree (every branch, a parent before its
// children); ActiveLeafID is the last message of the branch it shows, null when it
// has no message.
type Conversation struct {
	ID              string           `json:"id"`
	Title           string           `json:"title"`
	RoomID          string           `json:"roomId,omitempty"`
	Metadata        json.RawMessage  `json:"metadata,omitempty"`
	CreatedAt       string           `json:"createdAt"`
	UpdatedAt       string           `json:"updatedAt"`
	ActiveLeafID    *string          `json:"activeLeafId"`
	Messages        []Message        `json:"messages"`
	DisplayMessages []DisplayMessage `json:"displayMessages"`
	Runs            []Run            `json:"runs"`
}

// Message is a message as the model sees it: Text is the reply's final text,
// Segments and CallbackHistory what the UI rebuilds the live trail from. ParentID
// is the message it follows, null for a first message.
type Message struct {
	ID              string          `json:"id"`
	ParentID        *string         `json:"parentId"`
	Role            string          `json:"role"`
	Text            string          `json:"text"`
	Source          string          `json:"source,omitempty"`
	RunID           string          `json:"runId,omitempty"`
	ClientMessageID string          `json:"clientMessageId,omitempty"`
	Segments        json.RawMessage `json:"segments,omitempty"`
	CallbackHistory []string        `json:"callbackHistory,omitempty"`
	Metadata        json.RawMessage `json:"metadata,omitempty"`
	CreatedAt       string          `json:"createdAt"`
	// Attachments are the files the message lists, in order (none: left out).
	Attachments []Attachment `json:"attachments,omitempty"`
}

// Attachment is a file a message lists: its name and what Wisp read of its bytes,
// and the bytes themselves (Data, base64 in JSON) in a JSON export; a .zip export
// holds them apart, as attachments/<sha256>. An import trusts only the bytes (their
// SHA-256 must be SHA256, their length Size): the type and kind are read again from
// them.
type Attachment struct {
	ID     string `json:"id"`
	Name   string `json:"name"`
	MIME   string `json:"mime"`
	Size   int64  `json:"size"`
	SHA256 string `json:"sha256"`
	Kind   string `json:"kind"`
	Data   []byte `json:"data,omitempty"`
}

// DisplayMessage is a row of the conversation as the UI shows it (a tool call with
// its status, a thinking block, an approval card...).
type DisplayMessage struct {
	ID          string          `json:"id"`
	RunID       string          `json:"runId,omitempty"`
	MessageType string          `json:"messageType"`
	ContentType string          `json:"contentType"`
	Content     json.RawMessage `json:"content"`
	Status      string          `json:"status,omitempty"`
	ToolCallID  string          `json:"toolCallId,omitempty"`
	Metadata    json.RawMessage `json:"metadata,omitempty"`
	CreatedAt   string          `json:"createdAt"`
	UpdatedAt   string          `json:"updatedAt"`
}

// Run is a run's final state, and its output event (the reply, usage, stop reason)
// when it logged one. Its other events are not exported.
type Run struct {
	ID            string          `json:"id"`
	UserMessageID string          `json:"userMessageId,omitempty"`
	Status        string          `json:"status"`
	Error         string          `json:"error,omitempty"`
	StartedAt     string          `json:"startedAt"`
	EndedAt       string          `json:"endedAt,omitempty"`
	Output        json.RawMessage `json:"output,omitempty"`
}
