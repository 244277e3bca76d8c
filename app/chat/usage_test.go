package chat

import (
	"context"
	"errors"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/wispapp/wisp/app/store"
	"github.com/wispapp/wisp/runtime"
	"github.com/wispapp/wisp/runtime/llm"
)

// usageAgent is a scripted agent whose turns and titles report usage.
type usageAgent struct {
	*scriptAgent
	turn, title llm.Usage
}

func (a *usageAgent) Turn(ctx context.Context, in runtime.Input, emit runtime.Emit) (runtime.Result, error) {
	res, err := a.scriptAgent.Turn(ctx, in, emit)
	res.Usage = a.turn
	return res, err
}

func (a *usageAgent) Title(context.Context, string, string) (string, llm.Usage) {
	return "A title", a.title
}

func (a *usageAgent) Settings() runtime.Settings {
	return runtime.Settings{Character: runtime.Character{Name: "Wisp"}, Model: "m-1"}
}

// recorded collects what chat records.
type recorded struct {
	mu      sync.Mutex
	entries []UsageEntry
	added   chan struct{}
	read    int // entries next returned
}

func (r *recorded) record(_ context.Context, e UsageEntry) {
	r.mu.Lock()
	r.entries = append(r.entries, e)
	r.mu.Unlock()
	r.added <- struct{}{}
}

// next waits for the next entry, in the order they were recorded.
func (r *recorded) next(t *testing.T) UsageEntry {
	t.Helper()
	select {
	case <-r.added:
	case <-time.After(wait):
		t.Fatal("nothing was recorded")
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.read++
	return r.entries[r.read-1]
}

func startRecorded(t *testing.T, agent Agent) (*env, *recorded) {
	t.Helper()
	st, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "wisp.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	rec := &recorded{added: make(chan struct{}, 16)}
	e := &env{t: t, st: st, frames: &frames{}}
	e.svc = New(Options{Store: st, Agent: agent, Events: e.frames, Logger: quiet, RecordUsage: rec.record})
	if err := e.svc.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(e.svc.Stop)
	return e, rec
}

// A run's usage is recorded under its reply, whatever the
// end; the title made after the first exchange is recorded as such; a stateless
// request is recorded with no conversation; nothing is recorded of a call that
// reported nothing.
func TestChatRecordsUsage(t *testing.T) {
	used := llm.Usage{InputTokens: 100, OutputTokens: 10, CacheReadTokens: 40, CacheWriteTokens: 5}
	agent := &usageAgent{scriptAgent: newScript(-1, text("hi")), turn: used, title: llm.Usage{InputTokens: 7, OutputTokens: 2}}
	e, rec := startRecorded(t, agent)
	conv := e.conversation()
	run := e.send(conv, "hello")
	got := rec.next(t)
	if want := (UsageEntry{ConversationID: conv, RunID: run.ID, MessageID: run.ReplyMessageID, Kind: UsageChat, Model: "m-1", Usage: used}); got != want {
		t.Errorf("run: %+v, want %+v", got, want)
	}
	waitRun(t, run)
	if got := rec.next(t); got != (UsageEntry{ConversationID: conv, Kind: UsageTitle, Model: "m-1", Usage: agent.title}) {
		t.Errorf("title: %+v", got)
	}

	// A failed run spent its tokens all the same.
	agent.scriptAgent = newScript(-1, text("partial"))
	agent.err = errors.New("the model broke")
	run = e.send(conv, "again")
	if got := rec.next(t); got.Kind != UsageChat || got.MessageID != run.ReplyMessageID || got.Usage != used {
		t.Errorf("failed run: %+v", got)
	}
	if out := waitRun(t, run); out.Status != StatusFailed {
		t.Errorf("status %s", out.Status)
	}

	agent.scriptAgent, agent.err = newScript(-1, text("ok")), nil
	if _, err := e.svc.Complete(context.Background(), nil, llm.Message{Role: llm.RoleUser, Text: "hi"}, 0, func(string) {}); err != nil {
		t.Fatal(err)
	}
	if got := rec.next(t); got != (UsageEntry{Kind: UsageV1, Model: "m-1", Usage: used}) {
		t.Errorf("v1: %+v", got)
	}
	if _, err := e.svc.GenerateTitle(context.Background(), conv); err != nil {
		t.Fatal(err)
	}
	if got := rec.next(t); got.Kind != UsageTitle || got.ConversationID != conv {
		t.Errorf("generated title: %+v", got)
	}

	agent.scriptAgent, agent.turn = newScript(-1, text("free")), llm.Usage{}
	run = e.send(conv, "nothing reported")
	waitRun(t, run)
	<-run.Done()
	rec.mu.Lock()
	n := len(rec.entries)
	rec.mu.Unlock()
	if n != 5 {
		t.Errorf("a run that reported nothing was recorded: %d entries", n)
	}
}

// A page shows each assistant reply's recorded usage; the user's messages and the
// replies without any have none.
func TestPageShowsUsage(t *testing.T) {
	agent := &usageAgent{scriptAgent: newScript(-1, text("hi"))}
	e, _ := startRecorded(t, agent)
	conv := e.conversation()
	first := e.send(conv, "one")
	waitRun(t, first)
	agent.scriptAgent = newScript(-1, text("hi again"))
	second := e.send(conv, "two")
	waitRun(t, second)
	cost := 0.25
	if err := e.st.AddUsage(context.Background(), store.UsageRecord{ID: "u1", At: time.Now(), Day: "2026-11-28", Model: "m-1",
		Provider: "openai", Kind: "chat", ConversationID: conv, MessageID: second.ReplyMessageID,
		Tokens: store.Tokens{Input: 30, Output: 3, CacheRead: 20}, CostUSD: &cost}); err != nil {
		t.Fatal(err)
	}
	page, err := e.svc.Messages(context.Background(), conv, Page{})
	if err != nil || len(page.Messages) != 4 {
		t.Fatalf("page: %+v, %v", page, err)
	}
	for i, m := range page.Messages {
		want := m.ID == second.ReplyMessageID
		if (m.Usage != nil) != want {
			t.Errorf("message %d (%s): usage %+v", i, m.Role, m.Usage)
		}
	}
	u := page.Messages[3].Usage
	if u == nil || u.Model != "m-1" || u.Usage.InputTokens != 30 || u.Usage.CacheReadTokens != 20 || u.CostUSD == nil || *u.CostUSD != 0.25 {
		t.Errorf("the reply's usage: %+v", u)
	}
}
