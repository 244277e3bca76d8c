package proactive

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/wispapp/wisp/app/store"
	"github.com/wispapp/wisp/app/wire"
	"github.com/wispapp/wisp/runtime/llm"
	"github.com/wispapp/wisp/runtime/llm/llmtest"
)

// autonomous starts a harness with the loop on (30 s, then change) and conversation
// A open.
func autonomous(t *testing.T, change ...func(*Settings)) (*harness, store.Conversation) {
	h := newHarness(t)
	h.set.AutonomyEnabled = true
	for _, c := range change {
		c(&h.set)
	}
	a := h.conversation("A", t0)
	h.hub.setActive(a.ID)
	h.start()
	h.settle(2) // the scheduler's timer and the loop's
	return h, a
}

// kinds lists the autonomy envelopes' kinds (and "assistant" for what it said).
func kinds(h *harness) []string {
	var out []string
	for _, e := range h.hub.envelopes() {
		if e.Stream == "assistant" {
			out = append(out, "assistant")
			continue
		}
		out = append(out, payloadOf(e)["kind"].(string))
	}
	return out
}

func TestSilentTickSendsNothing(t *testing.T) {
	h, a := autonomous(t)
	used := llm.Usage{InputTokens: 300, OutputTokens: 12, CacheReadTokens: 200}
	h.llm.Script(llmtest.Turn{
		Thinking:  []string{"Nothing ", "happened."},
		ToolCalls: []llm.ToolCall{llmtest.Call("c1", "stay_silent", map[string]string{"reason": "nothing new"})},
		Usage:     used,
	})
	h.clk.Advance(30 * time.Second)
	dec := h.hub.waitEnvelope(t, "autonomy", "decision")
	h.settle(2)
	if p := payloadOf(dec); p["decision"] != "silent" || p["reason"] != "nothing new" {
		t.Fatalf("decision %v", p)
	}
	h.mu.Lock()
	if len(h.used) != 1 || h.used[0] != used {
		t.Errorf("the tick recorded %+v, want %+v", h.used, used)
	}
	h.mu.Unlock()
	if got := strings.Join(kinds(h), " "); got != "tick thought decision" {
		t.Fatalf("envelopes: %s", got)
	}
	for i, e := range h.hub.envelopes() {
		if e.RunID != "auto-1" || e.Seq == nil || *e.Seq != int64(i+1) {
			t.Fatalf("envelope %d: run %q seq %v", i, e.RunID, e.Seq)
		}
	}
	if thought := payloadOf(h.hub.envelopes()[1])["text"]; thought != "Nothing happened." {
		t.Fatalf("thought %v", thought)
	}
	if len(h.hub.ofType("proactive-message")) != 0 || len(h.messages(a.ID)) != 0 {
		t.Fatal("a silent tick said something")
	}
	reqs := h.llm.Requests()
	if len(reqs) != 1 || strings.Join(reqs[0].Tools, ",") != "speak,stay_silent" || !strings.Contains(reqs[0].System, "You are Wisp.") ||
		!strings.Contains(reqs[0].System, "on your own initiative") {
		t.Fatalf("the model was asked %+v", reqs)
	}
}

func TestSpeakingTickSaysItInTheActiveConversation(t *testing.T) {
	h, a := autonomous(t)
	h.userSaid(a.ID, "run the build please", t0.Add(-time.Hour))
	h.svc.TerminalOutput(terminalEvent("r1", wire.TerminalStart, func(f *wire.TerminalOutput) { f.Command = "make build" }))
	h.clk.Advance(5 * time.Second)
	h.svc.TerminalOutput(terminalEvent("r1", wire.TerminalExit, func(f *wire.TerminalOutput) { f.Code = 2 }))
	h.llm.Script(llmtest.ToolTurn(llmtest.Call("c1", "speak", map[string]string{"text": "Your build failed with exit code 2."})))

	h.clk.Advance(25 * time.Second)
	frame := h.hub.waitFrames(t, "proactive-message", 1)[0]
	msg := frame["message"].(map[string]any)
	if frame["conversationId"] != a.ID || msg["source"] != "autonomy" || msg["text"] != "Your build failed with exit code 2." {
		t.Fatalf("proactive-message %v", frame)
	}
	if _, ok := msg["late"]; ok {
		t.Fatalf("late is for reminders only: %v", msg)
	}
	if got := strings.Join(kinds(h), " "); got != "tick decision assistant" {
		t.Fatalf("envelopes: %s", got)
	}
	said := h.hub.envelopes()[2]
	if said.RunID != "auto-1" || payloadOf(said)["text"] != "Your build failed with exit code 2." {
		t.Fatalf("assistant envelope %+v", said)
	}
	msgs := h.messages(a.ID)
	if len(msgs) != 2 || msgs[1].Source != "autonomy" {
		t.Fatalf("messages %+v", msgs)
	}
	situation := h.llm.Requests()[0].LastUserText()
	for _, want := range []string{
		"The user last wrote 1 h 0 min ago.",
		"The command `make build` failed after 5 s with exit code 2.",
		`The conversation "A", where you would speak, ends with:`,
		"user: run the build please",
	} {
		if !strings.Contains(situation, want) {
			t.Errorf("the situation lacks %q:\n%s", want, situation)
		}
	}
}

func TestTickWithoutADecisionStaysSilent(t *testing.T) {
	h, a := autonomous(t)
	h.llm.Script(llmtest.TextTurn("Hello there!", 0))
	h.clk.Advance(30 * time.Second)
	h.hub.waitEnvelope(t, "autonomy", "decision")
	h.settle(2)
	if got := strings.Join(kinds(h), " "); got != "tick thought error decision" {
		t.Fatalf("envelopes: %s", got)
	}
	if len(h.messages(a.ID)) != 0 {
		t.Fatal("plain text was said")
	}
}

func TestTickModelFailureIsAnErrorEvent(t *testing.T) {
	h, _ := autonomous(t)
	h.llm.Script(llmtest.ErrorTurn(500, "overloaded"))
	h.clk.Advance(30 * time.Second)
	e := h.hub.waitEnvelope(t, "autonomy", "error")
	if !strings.Contains(payloadOf(e)["message"].(string), "overloaded") {
		t.Fatalf("error %v", payloadOf(e))
	}
}

func TestRateLimitAndCooldown(t *testing.T) {
	h, a := autonomous(t, func(s *Settings) { s.MaxPerHour = 1 })
	// One message of its own 50 minutes ago: the hour's allowance is used.
	ctx := context.Background()
	_, err := h.st.AddMessage(ctx, store.Message{ID: "m0", ConversationID: a.ID, Role: "assistant", Text: "hi",
		Source: SourceAutonomy, CreatedAt: t0.Add(-50 * time.Minute)})
	if err != nil {
		t.Fatal(err)
	}
	h.clk.Advance(30 * time.Second)
	if p := payloadOf(h.hub.waitEnvelope(t, "autonomy", "skipped")); p["reason"] != "rate-limit" {
		t.Fatalf("skipped %v", p)
	}
	h.settle(2)
	h.clk.Advance(30 * time.Second) // still limited: not published again
	h.settle(2)
	if got := strings.Join(kinds(h), " "); got != "skipped" {
		t.Fatalf("envelopes: %s", got)
	}

	// The hour passes; now the user spoke 1 minute ago: the 2-minute cooldown.
	h.clk.Advance(9 * time.Minute)
	h.settle(2)
	h.userSaid(a.ID, "hello", h.clk.Now().Add(-time.Minute))
	h.clk.Advance(30 * time.Second)
	h.settle(2)
	if got := strings.Join(kinds(h), " "); got != "skipped skipped" || payloadOf(h.hub.envelopes()[1])["reason"] != "cooldown" {
		t.Fatalf("envelopes: %s", got)
	}
	if len(h.llm.Requests()) != 0 {
		t.Fatal("a held-back tick asked the model")
	}

	// Past the cooldown it thinks again.
	h.llm.Script(llmtest.ToolTurn(llmtest.Call("c1", "stay_silent", map[string]string{"reason": "just talked"})))
	h.clk.Advance(90 * time.Second)
	h.hub.waitEnvelope(t, "autonomy", "decision")
	if len(h.llm.Requests()) != 1 {
		t.Fatalf("%d model requests, want 1", len(h.llm.Requests()))
	}
}

func TestHeldBackWhileBusyOrWithoutAModel(t *testing.T) {
	h, _ := autonomous(t)
	h.mu.Lock()
	h.busy = true
	h.mu.Unlock()
	h.clk.Advance(30 * time.Second)
	if p := payloadOf(h.hub.waitEnvelope(t, "autonomy", "skipped")); p["reason"] != "busy" {
		t.Fatalf("skipped %v", p)
	}
	h.settle(2)
	h.mu.Lock()
	h.busy, h.noLLM = false, true
	h.mu.Unlock()
	h.clk.Advance(30 * time.Second)
	h.settle(2)
	if got := payloadOf(h.hub.envelopes()[1]); got["reason"] != "no-model" {
		t.Fatalf("second skip %v", got)
	}
}

func TestTogglingAndInterval(t *testing.T) {
	h := newHarness(t)
	h.start()
	h.settle(1) // off: only the scheduler waits
	st, err := h.svc.Autonomy(context.Background())
	if err != nil || st.Enabled || st.NextTickAt != 0 || st.IntervalMs != 30000 || st.MaxPerHour != 4 || st.CooldownMs != 120000 {
		t.Fatalf("state %+v, %v", st, err)
	}

	h.configure(func(s *Settings) { s.AutonomyEnabled, s.Interval = true, 5*time.Second })
	h.settle(2)
	st, _ = h.svc.Autonomy(context.Background())
	if !st.Enabled || st.IntervalMs != 5000 || st.NextTickAt != t0.Add(5*time.Second).UnixMilli() {
		t.Fatalf("state after enabling %+v", st)
	}
	h.llm.Fallback(func(llmtest.Received) llmtest.Turn {
		return llmtest.ToolTurn(llmtest.Call("c", "stay_silent", map[string]string{"reason": "quiet"}))
	})
	h.clk.Advance(5 * time.Second)
	h.hub.waitEnvelope(t, "autonomy", "decision")
	h.settle(2)
	st, _ = h.svc.Autonomy(context.Background())
	if st.LastTickAt != t0.Add(5*time.Second).UnixMilli() {
		t.Fatalf("lastTickAt %d", st.LastTickAt)
	}

	h.configure(func(s *Settings) { s.AutonomyEnabled = false })
	h.settle(1)
	h.clk.Advance(time.Hour)
	h.settle(1)
	if n := len(h.llm.Requests()); n != 1 {
		t.Fatalf("%d model requests after turning it off, want 1", n)
	}
}

func TestSpeechIsHeldBackWhenTheUserSpokeWhileItThought(t *testing.T) {
	h, a := autonomous(t)
	h.llm.Script(llmtest.Turn{
		Delay:     100 * time.Millisecond,
		Text:      []string{"Let me ", "think."},
		ToolCalls: []llm.ToolCall{llmtest.Call("c1", "speak", map[string]string{"text": "Hello!"})},
	})
	h.clk.Advance(30 * time.Second)
	h.hub.waitEnvelope(t, "autonomy", "tick")
	h.userSaid(a.ID, "I'm back", h.clk.Now()) // while the model is still streaming
	dec := payloadOf(h.hub.waitEnvelope(t, "autonomy", "decision"))
	if dec["decision"] != "silent" || dec["reason"] != "held back after thinking: cooldown" {
		t.Fatalf("decision %v", dec)
	}
	h.settle(2)
	if len(h.hub.ofType("proactive-message")) != 0 || len(h.messages(a.ID)) != 1 {
		t.Fatal("it spoke right after the user")
	}
}
