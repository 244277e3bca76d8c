package proactive

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/wispapp/wisp/app/store"
	"github.com/wispapp/wisp/internal/fault"
)

func TestReminderFiresOnceAtItsTime(t *testing.T) {
	h := newHarness(t)
	conv := h.conversation("Errands", t0)
	h.start()
	h.settle(1)
	r := h.addReminder(ReminderInput{ConversationID: conv.ID, Text: "stretch", InMinutes: minutes(10)})
	if r.Status != "pending" || r.At != "2026-11-21T09:10:00.000Z" || *r.ConversationID != conv.ID {
		t.Fatalf("created %+v", r)
	}
	if got := h.hub.ofType("reminder-updated"); len(got) != 1 {
		t.Fatalf("reminder-updated frames on create: %d", len(got))
	}
	h.settle(1)

	h.clk.Advance(10*time.Minute - time.Second)
	h.settle(1)
	if n := len(h.messages(conv.ID)); n != 0 || len(h.hub.ofType("proactive-message")) != 0 {
		t.Fatalf("delivered a second early (%d messages)", n)
	}

	h.clk.Advance(time.Second)
	frame := h.hub.waitFrames(t, "proactive-message", 1)[0]
	msg := frame["message"].(map[string]any)
	if frame["conversationId"] != conv.ID || msg["source"] != "reminder" || msg["text"] != "Reminder: stretch" ||
		msg["late"] != false || msg["reminderId"] != r.ID || msg["role"] != "assistant" {
		t.Fatalf("proactive-message %v", frame)
	}
	if msg["timestamp"] != float64(t0.Add(10*time.Minute).UnixMilli()) {
		t.Fatalf("timestamp %v", msg["timestamp"])
	}
	delivered := h.hub.waitFrames(t, "reminder-updated", 2)[1]["reminder"].(map[string]any)
	if delivered["status"] != "delivered" || delivered["messageId"] != msg["id"] {
		t.Fatalf("reminder-updated after delivery: %v", delivered)
	}

	h.clk.Advance(time.Hour)
	h.settle(1)
	msgs := h.messages(conv.ID)
	if len(msgs) != 1 || msgs[0].Source != "reminder" || msgs[0].Role != "assistant" {
		t.Fatalf("messages after an hour: %+v", msgs)
	}
	if got := h.reminder(r.ID); got.Pending() || got.Late || got.MessageID != msgs[0].ID {
		t.Fatalf("stored reminder %+v", got)
	}
}

func TestReminderDueWhileStoppedIsDeliveredOnceAfterRestartMarkedLate(t *testing.T) {
	h := newHarness(t)
	conv := h.conversation("Errands", t0)
	h.start()
	r := h.addReminder(ReminderInput{ConversationID: conv.ID, Text: "call mom", InMinutes: minutes(5)})

	h.restart(2 * time.Hour) // Wisp was closed when it came due
	frame := h.hub.waitFrames(t, "proactive-message", 1)[0]
	msg := frame["message"].(map[string]any)
	if msg["late"] != true || !strings.Contains(msg["text"].(string), "late") || !strings.HasSuffix(msg["text"].(string), "call mom") {
		t.Fatalf("late delivery: %v", msg)
	}
	if got := h.reminder(r.ID); !got.Late || got.Pending() {
		t.Fatalf("stored reminder %+v", got)
	}
	h.settle(1)

	h.restart(time.Hour)
	h.settle(1)
	if n := len(h.hub.ofType("proactive-message")); n != 1 {
		t.Fatalf("%d deliveries after a second restart, want 1", n)
	}
	if n := len(h.messages(conv.ID)); n != 1 {
		t.Fatalf("%d messages, want 1", n)
	}
}

func TestCrashBetweenSendAndMarkDoesNotDuplicate(t *testing.T) {
	h := newHarness(t)
	conv := h.conversation("Errands", t0)
	ctx := context.Background()
	r := h.addReminder(ReminderInput{ConversationID: conv.ID, Text: "stretch", InMinutes: minutes(1)})
	note := Note{Text: "Reminder: stretch", Source: SourceReminder, ConversationID: conv.ID, ReminderID: r.ID}

	// A crash (a panic) after the message is written and before the reminder is
	// marked: the transaction is rolled back, so neither happened.
	h.svc.router.afterSend = func() error { panic("power cut") }
	func() {
		defer func() {
			if recover() == nil {
				t.Fatal("the injected crash did not happen")
			}
		}()
		_, _ = h.svc.router.Deliver(ctx, note)
	}()
	// A failure at the same point.
	h.svc.router.afterSend = func() error { return errors.New("disk full") }
	if _, err := h.svc.router.Deliver(ctx, note); err == nil {
		t.Fatal("the injected failure was not reported")
	}
	if n := len(h.messages(conv.ID)); n != 0 || !h.reminder(r.ID).Pending() {
		t.Fatalf("after the crash: %d messages, pending %v", n, h.reminder(r.ID).Pending())
	}
	if len(h.hub.ofType("proactive-message")) != 0 {
		t.Fatal("a rolled-back delivery was broadcast")
	}

	// The scheduler finds it still due and delivers it, once.
	h.svc.router.afterSend = nil
	h.clk.Advance(time.Minute)
	h.start()
	h.hub.waitFrames(t, "proactive-message", 1)
	h.settle(1)
	if _, err := h.svc.router.Deliver(ctx, note); !errors.Is(err, ErrAlreadyDelivered) {
		t.Fatalf("delivering again: %v, want ErrAlreadyDelivered", err)
	}
	if n := len(h.messages(conv.ID)); n != 1 {
		t.Fatalf("%d messages, want 1", n)
	}
}

func TestFailedDeliveryIsRetried(t *testing.T) {
	h := newHarness(t)
	conv := h.conversation("Errands", t0)
	failures := 1
	h.svc.router.afterSend = func() error {
		if failures > 0 {
			failures--
			return errors.New("database is locked")
		}
		return nil
	}
	h.start()
	h.addReminder(ReminderInput{ConversationID: conv.ID, Text: "stretch", InMinutes: minutes(1)})
	h.settle(1)
	h.clk.Advance(time.Minute)
	h.settle(1) // failed; waits retryAfter
	if len(h.hub.ofType("proactive-message")) != 0 {
		t.Fatal("a failed delivery was broadcast")
	}
	h.clk.Advance(retryAfter)
	h.hub.waitFrames(t, "proactive-message", 1)
	if n := len(h.messages(conv.ID)); n != 1 {
		t.Fatalf("%d messages, want 1", n)
	}
}

func TestDeletedReminderDoesNotFire(t *testing.T) {
	h := newHarness(t)
	conv := h.conversation("Errands", t0)
	h.start()
	r := h.addReminder(ReminderInput{ConversationID: conv.ID, Text: "stretch", InMinutes: minutes(1)})
	if err := h.svc.DeleteReminder(context.Background(), r.ID); err != nil {
		t.Fatal(err)
	}
	if f := h.hub.ofType("reminder-deleted"); len(f) != 1 || f[0]["id"] != r.ID {
		t.Fatalf("reminder-deleted frames %v", f)
	}
	h.settle(1)
	h.clk.Advance(time.Hour)
	h.settle(1)
	if len(h.hub.ofType("proactive-message")) != 0 {
		t.Fatal("a deleted reminder fired")
	}
	if err := h.svc.DeleteReminder(context.Background(), r.ID); !fault.Is(err, fault.NotFound) {
		t.Fatalf("deleting again: %v", err)
	}
}

func TestReminderOfADeletedConversationStillFires(t *testing.T) {
	h := newHarness(t)
	gone := h.conversation("Gone", t0)
	kept := h.conversation("Kept", t0.Add(-time.Hour))
	h.start()
	r := h.addReminder(ReminderInput{ConversationID: gone.ID, Text: "stretch", InMinutes: minutes(1)})
	if err := h.st.DeleteConversation(context.Background(), gone.ID); err != nil {
		t.Fatal(err)
	}
	list, err := h.svc.Reminders(context.Background())
	if err != nil || len(list) != 1 || list[0].ConversationID != nil {
		t.Fatalf("list after the conversation went: %+v, %v", list, err)
	}
	h.settle(1)
	h.clk.Advance(time.Minute)
	frame := h.hub.waitFrames(t, "proactive-message", 1)[0]
	if frame["conversationId"] != kept.ID {
		t.Fatalf("routed to %v, want the remaining conversation %s", frame["conversationId"], kept.ID)
	}
	if h.reminder(r.ID).Pending() {
		t.Fatal("still pending")
	}
}

func TestReminderInputIsChecked(t *testing.T) {
	h := newHarness(t)
	conv := h.conversation("Errands", t0)
	long := strings.Repeat("x", MaxReminderRunes+1)
	cases := []struct {
		name string
		in   ReminderInput
		kind fault.Kind
		msg  string
	}{
		{"no text", ReminderInput{InMinutes: minutes(5)}, fault.Invalid, "text is required"},
		{"blank text", ReminderInput{Text: "  ", InMinutes: minutes(5)}, fault.Invalid, "text is required"},
		{"long text", ReminderInput{Text: long, InMinutes: minutes(5)}, fault.Invalid, "longer than 2000"},
		{"no time", ReminderInput{Text: "x"}, fault.Invalid, "give the reminder's time"},
		{"both times", ReminderInput{Text: "x", At: "2026-11-21T10:00:00Z", InMinutes: minutes(5)}, fault.Invalid, "not both"},
		{"zero minutes", ReminderInput{Text: "x", InMinutes: minutes(0)}, fault.Invalid, "inMinutes must be"},
		{"negative minutes", ReminderInput{Text: "x", InMinutes: minutes(-3)}, fault.Invalid, "inMinutes must be"},
		{"too far", ReminderInput{Text: "x", InMinutes: minutes(maxInMinutes + 1)}, fault.Invalid, "inMinutes must be"},
		{"no zone", ReminderInput{Text: "x", At: "2026-11-21T10:00:00"}, fault.Invalid, "RFC 3339"},
		{"not a time", ReminderInput{Text: "x", At: "tomorrow"}, fault.Invalid, "RFC 3339"},
		{"past", ReminderInput{Text: "x", At: "2026-11-21T08:00:00Z"}, fault.Invalid, "in the past"},
		{"a year away", ReminderInput{Text: "x", At: "2028-01-01T00:00:00Z"}, fault.Invalid, "more than a year"},
		{"unknown conversation", ReminderInput{ConversationID: "nope", Text: "x", InMinutes: minutes(5)}, fault.NotFound, "conversation not found"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := h.svc.AddReminder(context.Background(), tc.in)
			if fault.KindOf(err) != tc.kind || !strings.Contains(err.Error(), tc.msg) {
				t.Fatalf("got %v, want %v %q", err, tc.kind, tc.msg)
			}
		})
	}
	// Accepted: a zoned time, one a few seconds ago (fires at once), no conversation.
	for _, in := range []ReminderInput{
		{ConversationID: conv.ID, Text: " tea ", At: "2026-11-21T11:30:00+02:00"},
		{Text: "now-ish", At: "2026-11-21T08:59:30Z"},
	} {
		if _, err := h.svc.AddReminder(context.Background(), in); err != nil {
			t.Fatalf("%+v: %v", in, err)
		}
	}
	list, err := h.svc.Reminders(context.Background())
	if err != nil || len(list) != 2 || list[0].Text != "now-ish" || list[1].At != "2026-11-21T09:30:00.000Z" || list[1].Text != "tea" {
		t.Fatalf("list %+v, %v", list, err)
	}
	if n, _ := h.st.Reminders(context.Background(), 0); len(n) != 2 {
		t.Fatalf("%d stored, want 2 (refused ones are not saved)", len(n))
	}
}

func TestRemindersListPendingByTimeThenDelivered(t *testing.T) {
	h := newHarness(t)
	ctx := context.Background()
	for i, at := range []time.Duration{3 * time.Minute, time.Minute, 2 * time.Minute} {
		r := store.Reminder{ID: string(rune('a' + i)), Text: "r", At: t0.Add(at), CreatedAt: t0}
		if err := h.st.AddReminder(ctx, r); err != nil {
			t.Fatal(err)
		}
	}
	h.start()
	h.settle(1)
	h.clk.Advance(90 * time.Second) // b comes due
	h.hub.waitFrames(t, "proactive-message", 1)
	h.settle(1)
	list, err := h.svc.Reminders(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range list {
		got = append(got, r.ID+":"+string(r.Status))
	}
	if strings.Join(got, " ") != "c:pending a:pending b:delivered" {
		t.Fatalf("order %v", got)
	}
}
