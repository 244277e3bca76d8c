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
	conv     store.Conversation
	messages []store.Message
	display  []store.DisplayMessage
	runs     []store.Run
	outputs  map[string]json.RawMessage // by run id
}

// load reads a conversation's records. They are read one table after the other, not
// in one transaction (which would hold up every writer meanwhile): a reply still
// being written shows as an active run without its message.
func load(ctx context.Context, st *store.Store, c store.Conversation) (records, error) {
	r := records{conv: c}
	var err error
	if r.messages, err = st.AllMessages(ctx, c.ID); err != nil {
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
	for i, m := range r.messages {
		c.Messages[i] = Message{ID: m.ID, Role: m.Role, Text: m.Text, Source: m.Source, RunID: m.RunID,
			ClientMessageID: m.ClientMessageID, Segments: m.Segments, CallbackHistory: m.CallbackHistory,
			Metadata: m.Metadata, CreatedAt: wire.ISOTime(m.CreatedAt)}
	}
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

func optISO(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return wire.ISOTime(t)
}
