package chat

import (
	"context"
	"testing"
	"time"

	"github.com/wispapp/wisp/internal/fault"

	"github.com/wispapp/wisp/app/store"
	"github.com/wispapp/wisp/app/wire"
)

func TestPageQuery(t *testing.T) {
	for _, tt := range []struct {
		p     Page
		limit int
		want  fault.Kind
	}{
		{Page{}, DefaultPageLimit, 0},
		{Page{Limit: MaxPageLimit, Around: "m"}, MaxPageLimit, 0},
		{Page{Limit: -1}, 0, fault.Invalid},
		{Page{Limit: MaxPageLimit + 1}, 0, fault.Invalid},
		{Page{Before: "a", Around: "b"}, 0, fault.Invalid},
	} {
		q, err := tt.p.query()
		if fault.KindOf(err) != tt.want || (err == nil && q.Limit != tt.limit) {
			t.Errorf("%+v: %+v, %v", tt.p, q, err)
		}
	}
}

// Edit and regenerate refuse what they cannot do with the kind of failure the API
// shows, and write nothing then.
func TestTurnRefusals(t *testing.T) {
	agent := musicScript()
	e := newEnv(t, agent)
	ctx := context.Background()
	conv, other := e.conversation(), e.conversation()
	run := e.send(conv, "first")
	<-agent.held // its run is still being written
	if _, err := e.st.AddMessage(ctx, store.Message{ID: "o1", ConversationID: other, Role: "assistant", Text: "a note", CreatedAt: time.Now()}); err != nil {
		t.Fatal(err)
	}
	user := run.UserMessageID
	for _, tc := range []struct {
		name string
		do   func() error
		want fault.Kind
	}{
		{"edit while streaming", func() error { _, err := e.svc.Edit(ctx, conv, user, SendInput{Text: "x"}); return err }, fault.Conflict},
		{"branch while streaming", func() error { _, err := e.svc.SetBranch(ctx, conv, user); return err }, fault.Conflict},
		{"edit of another conversation's message", func() error { _, err := e.svc.Edit(ctx, conv, "o1", SendInput{Text: "x"}); return err }, fault.NotFound},
		{"edit of an assistant message", func() error { _, err := e.svc.Edit(ctx, other, "o1", SendInput{Text: "x"}); return err }, fault.Invalid},
		{"regenerate of a user message", func() error { _, err := e.svc.Regenerate(ctx, conv, user); return err }, fault.Invalid},
		{"regenerate of a reply to no question", func() error { _, err := e.svc.Regenerate(ctx, other, "o1"); return err }, fault.Invalid},
		{"regenerate of nothing", func() error { _, err := e.svc.Regenerate(ctx, conv, "nope"); return err }, fault.NotFound},
		{"edit in no conversation", func() error { _, err := e.svc.Edit(ctx, "nope", user, SendInput{Text: "x"}); return err }, fault.NotFound},
		{"empty edit", func() error { _, err := e.svc.Edit(ctx, conv, user, SendInput{Text: " "}); return err }, fault.Invalid},
		{"branch to nothing", func() error { _, err := e.svc.SetBranch(ctx, other, "nope"); return err }, fault.NotFound},
		{"branch to no id", func() error { _, err := e.svc.SetBranch(ctx, other, ""); return err }, fault.Invalid},
	} {
		if err := tc.do(); fault.KindOf(err) != tc.want {
			t.Errorf("%s: %v (%v), want %v", tc.name, err, fault.KindOf(err), tc.want)
		}
	}
	close(agent.release)
	if _, err := run.Wait(ctx); err != nil {
		t.Fatal(err)
	}
	if n, _ := e.st.MessageCount(ctx, conv); n != 2 {
		t.Fatalf("%d messages after refused turns, want 2", n)
	}
	if got := e.frames.ofType(wire.TypeConversationBranch); len(got) != 0 {
		t.Fatalf("refused turns published %v", got)
	}
	e.svc.opts.CanRespond = func() (bool, string) { return false, "No model is set up yet." }
	if _, err := e.svc.Edit(ctx, conv, user, SendInput{Text: "x"}); fault.KindOf(err) != fault.Unavailable {
		t.Fatalf("edit without a model: %v", err)
	}
}

// An edit starts a run on the new message, with the frame that tells the windows.
func TestEditPublishesTheBranch(t *testing.T) {
	agent := newScript(-1, text("ok"))
	e := newEnv(t, agent)
	ctx := context.Background()
	conv := e.conversation()
	first := e.send(conv, "first")
	if _, err := first.Wait(ctx); err != nil {
		t.Fatal(err)
	}
	run, err := e.svc.Edit(ctx, conv, first.UserMessageID, SendInput{Text: "again"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := run.Wait(ctx); err != nil {
		t.Fatal(err)
	}
	got := e.frames.ofType(wire.TypeConversationBranch)
	if len(got) != 1 || got[0].(wire.ConversationBranch).LeafID != run.UserMessageID {
		t.Fatalf("frames %v", got)
	}
	list, err := e.svc.Messages(ctx, conv, Page{})
	if err != nil || len(list.Messages) != 2 || list.Messages[0].ID != run.UserMessageID || list.Messages[1].Text != "ok" {
		t.Fatalf("page %+v, %v", list, err)
	}
	if ids := list.Messages[0].SiblingIDs; len(ids) != 2 || ids[0] != first.UserMessageID || list.Messages[0].SiblingIndex != 1 {
		t.Fatalf("siblings %v", ids)
	}
}
