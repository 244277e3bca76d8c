// Package view shows stored records in their wire shapes: a conversation and a
// display message look the same whether chat or a proactive message saved them.
//
// It knows the store and the frame catalog (app/wire), nothing else of Wisp.
package view

import (
	"github.com/wispapp/wisp/app/store"
	"github.com/wispapp/wisp/app/wire"
)

// Conversation is the wire shape of a stored conversation.
func Conversation(c store.Conversation) wire.Conversation {
	return wire.Conversation{
		ID: c.ID, Title: c.Title, RoomID: c.RoomID, Metadata: c.Metadata,
		CreatedAt: wire.ISOTime(c.CreatedAt), UpdatedAt: wire.ISOTime(c.UpdatedAt), Unread: c.Unread,
	}
}

// DisplayMessage is the wire shape of a stored display message.
func DisplayMessage(d store.DisplayMessage) wire.DisplayMessage {
	return wire.DisplayMessage{
		ID: d.ID, ConversationID: d.ConversationID, RunID: d.RunID, MessageType: wire.DisplayMessageType(d.MessageType),
		ContentType: wire.DisplayContentType(d.ContentType), Content: d.Content, Status: wire.ToolCallStatus(d.Status), ToolCallID: d.ToolCallID,
		CreatedAt: d.CreatedAt.UnixMilli(), UpdatedAt: d.UpdatedAt.UnixMilli(),
	}
}
