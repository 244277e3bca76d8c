package proactive

import (
	"context"
	"testing"
	"time"
)

func TestRouting(t *testing.T) {
	cases := []struct {
		name string
		// setup makes conversations and returns the note's own target, the active
		// conversation (or "") and the expected target ("new" for a new one).
		setup     func(h *harness) (own, active, want string)
		source    string
		wantTitle string
	}{
		{name: "its own conversation", source: SourceReminder, setup: func(h *harness) (string, string, string) {
			a, b := h.conversation("A", t0), h.conversation("B", t0.Add(time.Minute))
			return a.ID, b.ID, a.ID
		}},
		{name: "active", source: SourceAutonomy, setup: func(h *harness) (string, string, string) {
			a := h.conversation("A", t0.Add(-time.Hour))
			h.conversation("B", t0)
			return "", a.ID, a.ID
		}},
		{name: "own gone, active", source: SourceReminder, setup: func(h *harness) (string, string, string) {
			a := h.conversation("A", t0.Add(-time.Hour))
			h.conversation("B", t0)
			return "deleted", a.ID, a.ID
		}},
		{name: "active gone, most recent", source: SourceAutonomy, setup: func(h *harness) (string, string, string) {
			h.conversation("A", t0.Add(-time.Hour))
			b := h.conversation("B", t0)
			return "", "deleted", b.ID
		}},
		{name: "none active, most recent", source: SourceTerminal, setup: func(h *harness) (string, string, string) {
			h.conversation("A", t0.Add(-time.Hour))
			b := h.conversation("B", t0)
			h.conversation("C", t0.Add(-2*time.Hour))
			return "", "", b.ID
		}},
		{name: "no conversation yet", source: SourceReminder, wantTitle: "Reminders", setup: func(*harness) (string, string, string) {
			return "", "", "new"
		}},
		{name: "no conversation, autonomy", source: SourceAutonomy, wantTitle: "New Chat", setup: func(*harness) (string, string, string) {
			return "", "", "new"
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t)
			own, active, want := tc.setup(h)
			if active != "" {
				h.hub.setActive(active)
			}
			h.clk.Advance(time.Minute)
			d, err := h.svc.router.Deliver(context.Background(), Note{Text: "hello", Source: tc.source, ConversationID: own})
			if err != nil {
				t.Fatal(err)
			}
			got := d.Conversation
			if want == "new" {
				if !d.Created || got.Title != tc.wantTitle {
					t.Fatalf("want a new conversation titled %q, got %+v (created %v)", tc.wantTitle, got, d.Created)
				}
			} else if got.ID != want || d.Created {
				t.Fatalf("routed to %s, want %s", got.ID, want)
			}
			msgs := h.messages(got.ID)
			if len(msgs) != 1 || msgs[0].Source != tc.source || msgs[0].Text != "hello" || msgs[0].Role != "assistant" {
				t.Fatalf("messages %+v", msgs)
			}
			if !got.UpdatedAt.Equal(h.clk.Now()) {
				t.Fatalf("updatedAt %v, want %v", got.UpdatedAt, h.clk.Now())
			}
			display, err := h.st.DisplayMessages(context.Background(), got.ID, 0)
			if err != nil || len(display) != 1 || display[0].ContentType != "text" || string(display[0].Content) != `{"text":"hello"}` {
				t.Fatalf("display rows %+v, %v", display, err)
			}
			// Frames: the message, its display row and the conversation, in that order.
			var types []string
			for _, f := range h.hub.frames {
				types = append(types, f["type"].(string))
			}
			if len(types) != 3 || types[0] != "proactive-message" || types[1] != "display-message-saved" || types[2] != "conversation-updated" {
				t.Fatalf("frames %v", types)
			}
			conv := h.hub.frames[2]["conversation"].(map[string]any)
			if conv["id"] != got.ID || conv["updatedAt"] != "2026-11-21T09:01:00.000Z" {
				t.Fatalf("conversation-updated %v", conv)
			}
		})
	}
}

func TestUnreadUnlessAClientHasItOpen(t *testing.T) {
	h := newHarness(t)
	a, b := h.conversation("A", t0), h.conversation("B", t0)
	h.hub.setActive(a.ID)
	ctx := context.Background()

	d, err := h.svc.router.Deliver(ctx, Note{Text: "for A", Source: SourceAutonomy})
	if err != nil || d.Conversation.ID != a.ID || d.Conversation.Unread {
		t.Fatalf("into the open conversation: %+v, %v", d.Conversation, err)
	}
	d, err = h.svc.router.Deliver(ctx, Note{Text: "for B", Source: SourceReminder, ConversationID: b.ID})
	if err != nil || !d.Conversation.Unread {
		t.Fatalf("into another conversation: %+v, %v", d.Conversation, err)
	}
	if f := h.hub.ofType("conversation-updated"); f[1]["conversation"].(map[string]any)["unread"] != true {
		t.Fatalf("conversation-updated %v", f[1])
	}
	stored, _ := h.st.Conversation(ctx, b.ID)
	if !stored.Unread {
		t.Fatal("the mark was not stored")
	}

	// Opening B clears the mark once and tells every client.
	h.svc.MarkRead(b.ID)
	h.hub.waitFrames(t, "conversation-updated", 3)
	h.svc.MarkRead(b.ID)
	h.svc.MarkRead("")
	h.svc.Stop() // waits for the background marks
	f := h.hub.ofType("conversation-updated")
	if len(f) != 3 || f[2]["conversation"].(map[string]any)["unread"] != false {
		t.Fatalf("conversation-updated after opening: %v", f)
	}
	if stored, _ := h.st.Conversation(ctx, b.ID); stored.Unread {
		t.Fatal("still unread")
	}
}

func TestPublishedAssistantTextIsRouted(t *testing.T) {
	h := newHarness(t)
	a := h.conversation("A", t0)
	ctx := context.Background()
	for _, tc := range []struct{ stream, payload string }{
		{"autonomy", `{"text":"a thought"}`},
		{"assistant", `{"delta":"no text"}`},
		{"assistant", `{"text":""}`},
	} {
		if err := h.svc.RouteAgentEvent(ctx, envelope(tc.stream, tc.payload)); err != nil {
			t.Fatal(err)
		}
	}
	if len(h.messages(a.ID)) != 0 {
		t.Fatal("routed text that is not assistant text")
	}
	if err := h.svc.RouteAgentEvent(ctx, envelope("assistant", `{"text":"Build done.","source":"terminal"}`)); err != nil {
		t.Fatal(err)
	}
	if err := h.svc.RouteAgentEvent(ctx, envelope("assistant", `{"text":"Hi","source":"made-up"}`)); err != nil {
		t.Fatal(err)
	}
	msgs := h.messages(a.ID)
	if len(msgs) != 2 || msgs[0].Source != "terminal" || msgs[1].Source != "autonomy" {
		t.Fatalf("messages %+v", msgs)
	}
	if n := len(h.hub.envelopes()); n != 0 {
		t.Fatalf("%d envelopes published: routing is not publishing", n)
	}
}
