package archive

import (
	"context"
	"encoding/json"
	"time"

	"github.com/wispapp/wisp/app/store"
	"github.com/wispapp/wisp/app/wire"
)

// records is everything Wisp keeps of a conversation that an export carries.
type records struct {
	conv store.Conversation
	// messages are every message of every branch in the order saved or, for
	// Markdown, the branch shown; offBranch is then how many others there are.
	messages  []store.Message
	offBranch int
	// files are the attachments of each message that has any, by message id.
	files   map[string][]store.Attachment
	display []store.DisplayMessage
	runs    []store.Run
	outputs map[string]json.RawMessage // by run id
}

// load reads a conversation's records: every branch, or with shown only the branch
// the conversation shows. They are read one table after the other, not in one
// transaction (which would hold up every writer meanwhile): a reply still being
// written shows as an active run without its message.
func load(ctx context.Context, st *store.Store, c store.Conversation, shown bool) (records, error) {
	r := records{conv: c}
	var err error
	if shown {
		if r.messages, err = st.ActivePath(ctx, c.ID); err != nil {
			return r, err
		}
		all, err := st.AllMessageCount(ctx, c.ID)
		if err != nil {
			return r, err
		}
		r.offBranch = max(all-len(r.messages), 0)
	} else if r.messages, err = st.AllMessages(ctx, c.ID); err != nil {
		return r, err
	}
	if r.files, err = st.MessageAttachments(ctx, messageIDs(r.messages)); err != nil {
		return r, err
	}
	if r.display, err = st.AllDisplayMessages(ctx, c.ID); err != nil {
		return r, err
	}
	if r.runs, err = st.ConversationRuns(ctx, c.ID); err != nil {
		return r, err
	}
	r.outputs, err = st.RunOutputs(ctx, c.ID)
	return r, err
}

// document is the export shape of the records.
func (r records) document() Conversation {
	c := Conversation{
		ID: r.conv.ID, Title: r.conv.Title, RoomID: r.conv.RoomID, Metadata: r.conv.Metadata,
		CreatedAt: wire.ISOTime(r.conv.CreatedAt), UpdatedAt: wire.ISOTime(r.conv.UpdatedAt),
		Messages:        make([]Message, len(r.messages)),
		DisplayMessages: make([]DisplayMessage, len(r.display)),
		Runs:            make([]Run, len(r.runs)),
	}
	saved := make(map[string]bool, len(r.messages))
	for i, m := range r.messages {
		// A parent comes before its children. One that is not there (a store damaged
		// by hand) would make the file refused on import: the message starts a branch.
		parent := optString(m.ParentID)
		if !saved[m.ParentID] {
			parent = nil
		}
		saved[m.ID] = true
		c.Messages[i] = Message{ID: m.ID, ParentID: parent, Role: m.Role, Text: m.Text, Source: m.Source, RunID: m.RunID,
			ClientMessageID: m.ClientMessageID, Segments: m.Segments, CallbackHistory: m.CallbackHistory,
			Metadata: m.Metadata, CreatedAt: wire.ISOTime(m.CreatedAt), Attachments: exportAttachments(r.files[m.ID])}
	}
	c.ActiveLeafID = r.leaf(saved)
	for i, d := range r.display {
		c.DisplayMessages[i] = DisplayMessage{ID: d.ID, RunID: d.RunID, MessageType: d.MessageType,
			ContentType: d.ContentType, Content: d.Content, Status: d.Status, ToolCallID: d.ToolCallID,
			Metadata: d.Metadata, CreatedAt: wire.ISOTime(d.CreatedAt), UpdatedAt: wire.ISOTime(d.UpdatedAt)}
	}
	for i, run := range r.runs {
		c.Runs[i] = Run{ID: run.ID, UserMessageID: run.UserMessageID, Status: run.Status, Error: run.Error,
			StartedAt: wire.ISOTime(run.StartedAt), EndedAt: optISO(run.EndedAt), Output: r.outputs[run.ID]}
	}
	return c
}

// leaf is the id of the last message of the branch the conversation shows, nil when
// it has none. The conversation and its messages are read one after the other: when
// its leaf is not among the messages read (they were cut meanwhile), the last one
// saved stands in, so that the file always imports.
func (r records) leaf(saved map[string]bool) *string {
	if saved[r.conv.ActiveLeafID] {
		return optString(r.conv.ActiveLeafID)
	}
	if len(r.messages) == 0 {
		return nil
	}
	return optString(r.messages[len(r.messages)-1].ID)
}

func messageIDs(ms []store.Message) []string {
	ids := make([]string, len(ms))
	for i, m := range ms {
		ids[i] = m.ID
	}
	return ids
}

// optString is s, or nil (null in JSON) when it is empty.
func optString(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

func optISO(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return wire.ISOTime(t)
}
