package view

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/wispapp/wisp/app/store"
	"github.com/wispapp/wisp/app/wire"
)

func TestConversationAndDisplayMessage(t *testing.T) {
	at := time.Date(2026, 11, 21, 9, 0, 0, 123e6, time.FixedZone("CET", 3600))
	c := Conversation(store.Conversation{ID: "c", Title: "T", RoomID: "r", CreatedAt: at, UpdatedAt: at.Add(time.Second), Unread: true})
	if c.CreatedAt != "2026-11-21T08:00:00.123Z" || c.UpdatedAt != "2026-11-21T08:00:01.123Z" || !c.Unread || c.Metadata != nil {
		t.Fatalf("conversation %+v", c)
	}
	d := DisplayMessage(store.DisplayMessage{ID: "d", ConversationID: "c", ContentType: "text",
		Content: json.RawMessage(`{"text":"hi"}`), CreatedAt: at, UpdatedAt: at})
	want := wire.DisplayMessage{ID: "d", ConversationID: "c", ContentType: "text", Content: json.RawMessage(`{"text":"hi"}`),
		CreatedAt: at.UnixMilli(), UpdatedAt: at.UnixMilli()}
	if string(wire.JSON(d)) != string(wire.JSON(want)) {
		t.Fatalf("display message %s", wire.JSON(d))
	}
}
