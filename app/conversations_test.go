package app

import (
	"strings"
	"testing"

	"github.com/wispapp/wisp/app/wire"
	"github.com/wispapp/wisp/runtime"
	"github.com/wispapp/wisp/runtime/llm"
	"github.com/wispapp/wisp/runtime/llm/llmtest"
)

func isTitleRequest(r llmtest.Received) bool { return r.System == runtime.TitleInstruction }

// The conversation API: create, list (newest first), rename, generate a title,
// truncate, delete; titles are broadcast on /ws.
func TestConversationsAPI(t *testing.T) {
	c := startChat(t, t.TempDir())
	c.fake.Handle(isTitleRequest, func(llmtest.Received) llmtest.Turn { return llmtest.TextTurn("Greetings and salutations", 0) })
	ws := c.dialWS()
	first, second := c.newConversation(), c.newConversation()

	var list struct{ Conversations []wire.Conversation }
	c.call("GET", "/api/conversations", nil, &list)
	if len(list.Conversations) != 2 || list.Conversations[0].ID != second {
		t.Fatalf("list %+v", list)
	}
	c.fake.Script(llmtest.TextTurn("hello back", 0))
	c.stream(first, "hello there my good friend, how are you").all(t)
	c.call("GET", "/api/conversations", nil, &list)
	if list.Conversations[0].ID != first {
		t.Fatal("a conversation with a new message did not move to the top")
	}

	var got struct{ Conversation wire.Conversation }
	if code := c.call("PATCH", "/api/conversations/"+first, map[string]string{"title": "  Renamed  "}, &got); code != 200 || got.Conversation.Title != "Renamed" {
		t.Fatalf("rename: %d %+v", code, got)
	}
	upd := ws.waitFor(t, ofType("conversation-updated"))
	if conv := upd["conversation"].(map[string]any); conv["title"] != "Renamed" || conv["id"] != first {
		t.Fatalf("broadcast %v", upd)
	}
	if code := c.call("PATCH", "/api/conversations/"+first, map[string]bool{"generate": true}, &got); code != 200 || got.Conversation.Title != "Greetings and salutations" {
		t.Fatalf("generate: %d %+v", code, got)
	}
	if code := c.call("PATCH", "/api/conversations/"+first, map[string]string{"title": " "}, nil); code != 400 {
		t.Fatalf("empty title: %d", code)
	}

	msgs := c.messages(first)
	var trunc struct {
		OK           bool
		DeletedCount int
	}
	if code := c.call("POST", "/api/conversations/"+first+"/messages/truncate", map[string]any{"messageId": msgs[1].ID}, &trunc); code != 200 || trunc.DeletedCount != 0 {
		t.Fatalf("exclusive truncate of the last message: %d %+v", code, trunc)
	}
	c.call("POST", "/api/conversations/"+first+"/messages/truncate", map[string]any{"messageId": msgs[0].ID, "inclusive": true}, &trunc)
	if trunc.DeletedCount != 2 || len(c.messages(first)) != 0 {
		t.Fatalf("inclusive truncate: %+v", trunc)
	}

	if code := c.call("DELETE", "/api/conversations/"+second, nil, nil); code != 200 {
		t.Fatalf("delete: %d", code)
	}
	for _, path := range []string{"/api/conversations/" + second, "/api/conversations/" + second + "/messages"} {
		if code := c.call("GET", path, nil, nil); code != 404 {
			t.Fatalf("GET %s after delete: %d", path, code)
		}
	}
}

// After the first exchange the title is generated and broadcast.
func TestTitleAfterFirstExchange(t *testing.T) {
	fake := llmtest.New()
	t.Cleanup(fake.Close)
	opts := testOptions(t, t.TempDir(), map[string]string{
		"WISP_PROVIDER": "openai", "WISP_BASE_URL": fake.OpenAIURL(), "WISP_MODEL": "fake", "OPENAI_API_KEY": "k",
	})
	a := startApp(t, opts)
	t.Cleanup(func() { a.Stop() })
	c := &chatApp{App: a, t: t, fake: fake}
	fake.Handle(isTitleRequest, func(r llmtest.Received) llmtest.Turn {
		if !strings.Contains(r.Messages[0].Text, "plan a trip") {
			t.Errorf("title request without the conversation: %+v", r.Messages)
		}
		return llmtest.TextTurn("Trip planning", 0)
	})
	ws := c.dialWS()
	conv := c.newConversation()
	c.stream(conv, "help me plan a trip").all(t)
	upd := ws.waitFor(t, ofType("conversation-updated"))
	if upd["conversation"].(map[string]any)["title"] != "Trip planning" {
		t.Fatalf("broadcast %v", upd)
	}
	// Later exchanges keep the title.
	c.stream(conv, "and hotels").all(t)
	var got struct{ Conversation wire.Conversation }
	c.call("GET", "/api/conversations/"+conv, nil, &got)
	if got.Conversation.Title != "Trip planning" || len(fake.Requests()) != 3 {
		t.Fatalf("title %q after %d requests", got.Conversation.Title, len(fake.Requests()))
	}
}

// A turn saves display messages (seed 002) and broadcasts them, and publishes
// heartbeat envelopes.
func TestDisplayMessagesAndHeartbeats(t *testing.T) {
	c := startChat(t, t.TempDir(), musicAction())
	c.fake.Script(
		llmtest.Turn{Thinking: []string{"They want music."}, Text: []string{"Sure."}, ToolCalls: []llm.ToolCall{llmtest.Call("call_9", "PLAY_MUSIC", map[string]string{"song": "Song"})}},
		llmtest.TextTurn("Enjoy!", 0),
	)
	ws := c.dialWS()
	conv := c.newConversation()
	c.stream(conv, "music please").all(t)

	// Collect what /ws saw until the final heartbeat.
	var beats, toolStatuses []string
	for len(beats) == 0 || beats[len(beats)-1] != "sent" {
		m := ws.waitFor(t, func(map[string]any) bool { return true })
		switch m["type"] {
		case "heartbeat_event":
			p := m["payload"].(map[string]any)
			if p["conversationId"] != conv {
				t.Fatalf("heartbeat %v", m)
			}
			beats = append(beats, p["status"].(string))
		case "display-message-saved", "display-message-updated":
			if msg := m["message"].(map[string]any); msg["contentType"] == "tool_call" {
				toolStatuses = append(toolStatuses, msg["status"].(string))
			}
		}
	}
	if strings.Join(beats, ",") != "thinking,replying,sent" {
		t.Fatalf("heartbeats %v", beats)
	}
	// The tool row went pending → executing (once per status line) → completed, live.
	if got := strings.Join(toolStatuses, ","); got != "pending,executing,executing,executing,executing,completed" {
		t.Fatalf("tool statuses %s", got)
	}
	var rows struct{ DisplayMessages []wire.DisplayMessage }
	c.call("GET", "/api/conversations/"+conv+"/display-messages", nil, &rows)
	var kinds []string
	for _, r := range rows.DisplayMessages {
		k := string(r.ContentType)
		if r.Status != "" {
			k += ":" + string(r.Status)
		}
		kinds = append(kinds, k)
	}
	if got := strings.Join(kinds, ","); got != "text,thinking,text,tool_call:completed,tool_result,text" {
		t.Fatalf("display rows %s", got)
	}
}
