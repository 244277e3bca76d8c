package chat

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/wispapp/wisp/app/dialect"
	"github.com/wispapp/wisp/app/store"
	"github.com/wispapp/wisp/runtime"
	"github.com/wispapp/wisp/runtime/llm"
	"github.com/wispapp/wisp/runtime/llm/llmtest"
	"github.com/wispapp/wisp/runtime/llm/tokens"
)

// windowModel is a model with a small context window: it counts a request as the
// service's default counter does (times lie: a provider that counts more than Wisp
// thinks), refuses one over its window as providers do, answers a summary request
// by keeping its "FACT:" lines, and asks for the BIG action when told "TOOL".
type windowModel struct {
	window                      int
	mu                          sync.Mutex
	lie                         float64
	biggest, refused, summaries int
	// refuseAll refuses every chat request as too long.
	refuseAll bool
	// hang, when set, makes summary calls wait for their context (hung is told).
	hang bool
	hung chan struct{}
	// flood, when above 0, makes summary calls stream that many bytes of text (a
	// model that ignores its max tokens), stopping early when the caller hangs up.
	flood int
}

func (m *windowModel) Name() string { return "fake" }

func (m *windowModel) size(req llm.Request) int {
	n := byteCounter{}.Count(req.System)
	for _, msg := range req.Messages {
		n += byteCounter{}.Count(msg.Text) + messageOverhead
		for _, c := range msg.ToolCalls {
			n += byteCounter{}.Count(string(c.Arguments)) + messageOverhead
		}
	}
	for _, t := range req.Tools {
		n += byteCounter{}.Count(t.Name + t.Description + string(t.Parameters))
	}
	return n
}

func (m *windowModel) Stream(ctx context.Context, req llm.Request, onDelta func(llm.Delta)) (llm.Response, error) {
	m.mu.Lock()
	if m.hang && strings.HasPrefix(req.System, "You summarise a conversation") {
		hung := m.hung
		m.mu.Unlock()
		close(hung)
		<-ctx.Done()
		return llm.Response{}, ctx.Err()
	}
	defer m.mu.Unlock()
	lie := m.lie
	if lie == 0 {
		lie = 1
	}
	n := int(float64(m.size(req)) * lie)
	if n+req.MaxTokens > m.window || (m.refuseAll && !strings.HasPrefix(req.System, "You summarise a conversation")) {
		m.refused++
		return llm.Response{}, &llm.Error{Kind: llm.KindContextLength, Provider: "openai", Status: 400,
			Message: fmt.Sprintf("context_length_exceeded: %d tokens of %d", n+req.MaxTokens, m.window)}
	}
	m.biggest = max(m.biggest, n+req.MaxTokens)
	usage := llm.Usage{InputTokens: n, OutputTokens: 1}
	if strings.HasPrefix(req.System, "You summarise a conversation") && m.flood > 0 {
		m.summaries++
		chunk := strings.Repeat("FACT: flood ", 64<<10/12)
		sent := 0
		for sent < m.flood && ctx.Err() == nil {
			onDelta(llm.Delta{Kind: llm.DeltaText, Text: chunk})
			sent += len(chunk)
		}
		return llm.Response{Usage: usage}, ctx.Err()
	}
	if strings.HasPrefix(req.System, "You summarise a conversation") {
		m.summaries++
		var facts []string
		seen := map[string]bool{}
		for _, line := range strings.Split(req.Messages[0].Text, "\n") {
			if i := strings.Index(line, "FACT:"); i >= 0 && !seen[line[i:]] {
				seen[line[i:]] = true
				facts = append(facts, line[i:])
			}
		}
		text := strings.Join(facts, "\n")
		onDelta(llm.Delta{Kind: llm.DeltaText, Text: text})
		return llm.Response{Text: text, Usage: usage}, nil
	}
	last := req.Messages[len(req.Messages)-1]
	if last.Role == llm.RoleUser && strings.Contains(last.Text, "TOOL") {
		call := llm.ToolCall{ID: "c1", Name: "BIG", Arguments: []byte(`{}`)}
		onDelta(llm.Delta{Kind: llm.DeltaToolCall})
		return llm.Response{ToolCalls: []llm.ToolCall{call}, Usage: usage}, nil
	}
	onDelta(llm.Delta{Kind: llm.DeltaText, Text: "ok"})
	return llm.Response{Text: "ok", Usage: usage}, nil
}

// contextEnv is a service on the real agent over a windowModel, with a BIG action
// that returns big bytes of output.
func contextEnv(t *testing.T, m *windowModel, big int) *env {
	t.Helper()
	st, err := store.Open(context.Background(), t.TempDir()+"/wisp.db")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return contextEnvOn(t, st, m, big)
}

// bigAgent is the real agent over prov, with a BIG action that returns big bytes.
func bigAgent(t *testing.T, prov llm.Provider, big int) *runtime.Agent {
	t.Helper()
	reg := runtime.NewRegistry()
	if err := reg.Register(runtime.Action{Name: "BIG", Description: "Prints a big file.",
		Handler: func(context.Context, runtime.Call) (string, error) {
			return strings.Repeat("0123456789abcde\n", big/16), nil
		}}); err != nil {
		t.Fatal(err)
	}
	return runtime.New(runtime.Options{Provider: func() (llm.Provider, error) { return prov, nil }, Actions: reg,
		Settings: func() runtime.Settings {
			return runtime.Settings{Character: runtime.Character{Name: "Wisp", System: "Be brief."}, Model: "fake", MaxTokens: 500}
		}, Logger: quiet})
}

// contextEnvOn is contextEnv on an open store.
func contextEnvOn(t *testing.T, st *store.Store, m *windowModel, big int) *env {
	t.Helper()
	agent := bigAgent(t, m, big)
	e := &env{t: t, st: st, frames: &frames{}}
	e.svc = New(Options{Store: st, Agent: agent, Events: e.frames, Logger: quiet, NoTitles: true,
		Window: func(context.Context) (int, string) { return m.window, WindowConfig }})
	if err := e.svc.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(e.svc.Stop)
	return e
}

func (e *env) turn(convID, text string) Outcome {
	e.t.Helper()
	run := e.send(convID, text)
	ctx, cancel := context.WithTimeout(context.Background(), wait)
	defer cancel()
	out, err := run.Wait(ctx)
	if err != nil {
		e.t.Fatal(err)
	}
	return out
}

// A long conversation with a big tool output every tenth turn stays within a small
// window: no context error, one summary per crossing of the threshold, and the facts
// of the first turns still in the summary.
func TestLongConversationFitsTheWindow(t *testing.T) {
	m := &windowModel{window: 6000}
	e := contextEnv(t, m, 16<<10)
	conv := e.conversation()
	filler := strings.Repeat("Some words to fill the message up. ", 40)
	turns := 300
	for i := 1; i <= turns; i++ {
		text := fmt.Sprintf("FACT: turn %d code K%d\n%s", i, i*7, filler)
		if i%10 == 0 {
			text += " TOOL"
		}
		out := e.turn(conv, text)
		if out.Status != StatusEnded {
			t.Fatalf("turn %d: %s %s", i, out.Status, out.Error)
		}
	}
	if m.refused != 0 {
		t.Errorf("%d requests refused as too long", m.refused)
	}
	if m.biggest > m.window {
		t.Errorf("a request of %d tokens, over the window of %d", m.biggest, m.window)
	}
	sums, err := e.st.Summaries(context.Background(), conv)
	if err != nil {
		t.Fatal(err)
	}
	if len(sums) < 5 || m.summaries < len(sums) {
		t.Fatalf("%d summaries saved, %d summary calls", len(sums), m.summaries)
	}
	for i, s := range sums {
		if s.Status != store.SummaryDone {
			t.Errorf("summary %d: %s %s", i, s.Status, s.Error)
		}
		if i > 0 && s.Covers <= sums[i-1].Covers {
			t.Errorf("summary %d covers %d, the one before %d", i, s.Covers, sums[i-1].Covers)
		}
	}
	last := sums[len(sums)-1].Text
	for _, fact := range []string{"FACT: turn 1 code K7", "FACT: turn 2 code K14"} {
		if !strings.Contains(last, fact) {
			t.Errorf("the last summary lost %q", fact)
		}
	}
	// One summary per crossing: every summary followed a turn that did not make one.
	runs := map[string]int{}
	for _, s := range sums {
		runs[s.RunID]++
	}
	for run, n := range runs {
		if n != 1 {
			t.Errorf("run %s made %d summaries", run, n)
		}
	}
	if len(runs) > turns/2 {
		t.Errorf("%d of %d turns summarised", len(runs), turns)
	}
}

// A provider that counts more than Wisp thinks refuses once: Wisp summarises and
// retries, and the turn succeeds.
func TestContextTooLongSummarisesAndRetries(t *testing.T) {
	m := &windowModel{window: 6000}
	e := contextEnv(t, m, 0)
	conv := e.conversation()
	filler := strings.Repeat("Some words to fill the message up. ", 40)
	for i := 1; i <= 7; i++ {
		if out := e.turn(conv, fmt.Sprintf("FACT: %d\n%s", i, filler)); out.Status != StatusEnded {
			t.Fatalf("turn %d: %s", i, out.Error)
		}
	}
	m.mu.Lock()
	m.lie = 1.6
	m.mu.Unlock()
	out := e.turn(conv, "FACT: last\n"+filler)
	if out.Status != StatusEnded {
		t.Fatalf("after a refusal: %s %s", out.Status, out.Error)
	}
	if m.refused != 1 || m.summaries == 0 {
		t.Errorf("%d refused, %d summaries", m.refused, m.summaries)
	}
}

// A provider that refuses even the summarised context ends the reply with a clear
// error.
func TestContextTooLongTwiceEndsWithAClearError(t *testing.T) {
	m := &windowModel{window: 6000}
	e := contextEnv(t, m, 0)
	conv := e.conversation()
	for i := 1; i <= 3; i++ {
		e.turn(conv, fmt.Sprintf("FACT: %d\n%s", i, strings.Repeat("filler ", 100)))
	}
	m.mu.Lock()
	m.refuseAll = true
	m.mu.Unlock()
	out := e.turn(conv, "one more")
	if out.Status != StatusFailed || !strings.Contains(out.Error, "even after summarising") {
		t.Fatalf("%s %q, want a failure saying it does not fit even after summarising", out.Status, out.Error)
	}
}

// A question bigger than the budget is refused before anything is saved or sent; a
// 10 MB tool output is shortened, not sent whole.
func TestHugeInputs(t *testing.T) {
	m := &windowModel{window: 1500}
	e := contextEnv(t, m, 10<<20)
	conv := e.conversation()
	if _, err := e.svc.Send(context.Background(), conv, SendInput{Text: strings.Repeat("x", 32000)}); err == nil ||
		!strings.Contains(err.Error(), "too long for the model's context window") {
		t.Fatalf("a 32,000-character question: %v", err)
	}
	if n, _ := e.st.MessageCount(context.Background(), conv); n != 0 {
		t.Fatalf("%d messages saved", n)
	}
	m.mu.Lock()
	m.window = 6000
	m.mu.Unlock()
	run := e.send(conv, "TOOL please")
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute) // 10 MB through the run log, under -race
	defer cancel()
	out, err := run.Wait(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if out.Status != StatusEnded || m.refused != 0 {
		t.Fatalf("a 10 MB tool output: %s %q, %d refused", out.Status, out.Error, m.refused)
	}
}

// A summary model that answers megabytes (it ignores its max tokens) is cut off at
// the summary's bound: what is stored, logged and sent back stays small.
func TestFloodedSummaryIsBounded(t *testing.T) {
	m := &windowModel{window: 4000, flood: 8 << 20}
	e := contextEnv(t, m, 0)
	conv := e.conversation()
	filler := strings.Repeat("Some words to fill the message up. ", 30)
	for i := 1; i <= 12; i++ {
		if out := e.turn(conv, fmt.Sprintf("FACT: %d\n%s", i, filler)); out.Status != StatusEnded {
			t.Fatalf("turn %d: %s %q", i, out.Status, out.Error)
		}
	}
	sums, err := e.st.Summaries(context.Background(), conv)
	if err != nil || len(sums) == 0 {
		t.Fatalf("summaries %d, %v", len(sums), err)
	}
	for _, s := range sums {
		// maxOut tokens is at most 1,024, about 4 bytes each.
		if len(s.Text) == 0 || len(s.Text) > 4096 {
			t.Errorf("summary %s: %d bytes of text", s.ID, len(s.Text))
		}
	}
	if m.refused != 0 {
		t.Errorf("%d requests refused", m.refused)
	}
}

// Undo takes a summary out of the context; the meter says which one is used.
func TestUndoSummaryAndContextInfo(t *testing.T) {
	m := &windowModel{window: 4000}
	e := contextEnv(t, m, 0)
	conv := e.conversation()
	filler := strings.Repeat("Some words to fill the message up. ", 30)
	for i := 1; i <= 12; i++ {
		e.turn(conv, fmt.Sprintf("FACT: %d\n%s", i, filler))
	}
	ctx := context.Background()
	info, err := e.svc.ContextInfo(ctx, conv)
	if err != nil {
		t.Fatal(err)
	}
	if info.SummaryID == "" || info.Window != 4000 || info.Used <= 0 || info.SummaryAt != info.Budget*80/100 {
		t.Fatalf("context %+v", info)
	}
	undone, err := e.svc.UndoSummary(ctx, conv, info.SummaryID)
	if err != nil || undone.Status != "undone" {
		t.Fatalf("undo: %+v %v", undone, err)
	}
	if len(e.frames.ofType("conversation-summary")) == 0 {
		t.Error("no conversation-summary frame")
	}
	after, _ := e.svc.ContextInfo(ctx, conv)
	if after.SummaryID == info.SummaryID {
		t.Errorf("the undone summary is still used")
	}
	if _, err := e.svc.UndoSummary(ctx, conv, "nope"); err == nil {
		t.Error("undo of an unknown summary")
	}
}

// A summary under way when Wisp stops is failed after the next start, the raw turns
// are all there, and the next turn makes a new summary.
func TestRestartMidSummary(t *testing.T) {
	m := &windowModel{window: 4000, hung: make(chan struct{})}
	e := contextEnv(t, m, 0)
	conv := e.conversation()
	filler := strings.Repeat("Some words to fill the message up. ", 30)
	m.hang = true
	var run *Run
	for i := 1; run == nil; i++ {
		r := e.send(conv, fmt.Sprintf("FACT: %d\n%s", i, filler))
		select {
		case <-m.hung:
			run = r
		case <-r.Done():
			if i > 30 {
				t.Fatal("no summary after 30 turns")
			}
		}
	}
	e.svc.Stop()
	<-run.Done()
	ctx := context.Background()
	// A crash leaves it streaming: the next start must fail it either way.
	sums, _ := e.st.Summaries(ctx, conv)
	if len(sums) != 1 {
		t.Fatalf("%d summaries", len(sums))
	}
	crashed := sums[0]
	crashed.ID, crashed.Status, crashed.Error = "crashed", store.SummaryStreaming, ""
	if err := e.st.CreateSummary(ctx, crashed); err != nil {
		t.Fatal(err)
	}
	before, _ := e.st.MessageCount(ctx, conv)

	m.mu.Lock()
	m.hang = false
	m.mu.Unlock()
	e2 := contextEnvOn(t, e.st, m, 0)
	left, _ := e2.st.Summaries(ctx, conv, store.SummaryStreaming)
	if len(left) != 0 {
		t.Fatalf("%d summaries still streaming after the start", len(left))
	}
	failed, _ := e2.st.Summaries(ctx, conv, store.SummaryFailed)
	if len(failed) != 2 {
		t.Fatalf("%d failed summaries, want 2", len(failed))
	}
	if n, _ := e2.st.MessageCount(ctx, conv); n != before {
		t.Fatalf("%d messages after the start, %d before", n, before)
	}
	if out := e2.turn(conv, "FACT: after\n"+filler); out.Status != StatusEnded {
		t.Fatalf("the next turn: %s %s", out.Status, out.Error)
	}
	done, _ := e2.st.Summaries(ctx, conv, store.SummaryDone)
	if len(done) != 1 || !strings.Contains(done[0].Text, "FACT: 1") {
		t.Fatalf("done summaries after the restart: %+v", done)
	}
}

// Regenerate makes the summary again in a run of its own, streamed like any run, and
// undoes the old one once the new one is done.
func TestRegenerateSummary(t *testing.T) {
	m := &windowModel{window: 4000}
	e := contextEnv(t, m, 0)
	conv := e.conversation()
	filler := strings.Repeat("Some words to fill the message up. ", 30)
	ctx := context.Background()
	var old []store.Summary
	for i := 1; len(old) == 0 && i < 30; i++ {
		e.turn(conv, fmt.Sprintf("FACT: %d\n%s", i, filler))
		old, _ = e.st.Summaries(ctx, conv, store.SummaryDone)
	}
	if len(old) == 0 {
		t.Fatal("no summary")
	}
	runID, sum, err := e.svc.RegenerateSummary(ctx, conv, old[0].ID)
	if err != nil {
		t.Fatal(err)
	}
	if sum.ID == old[0].ID || sum.Status != "streaming" || sum.ThroughID != old[0].ThroughID {
		t.Fatalf("new summary %+v", sum)
	}
	sub, err := e.svc.Subscribe(ctx, runID, 0, dialect.NewDelta())
	if err != nil {
		t.Fatal(err)
	}
	var types []string
	for _, f := range rest(t, sub) {
		types = append(types, fmt.Sprint(f.decode()["type"]))
	}
	if got := strings.Join(types, " "); got != "summary_start summary_delta summary_end done" {
		t.Fatalf("frames %s", got)
	}
	was, _ := e.st.GetSummary(ctx, conv, old[0].ID)
	now, _ := e.st.GetSummary(ctx, conv, sum.ID)
	if was.Status != store.SummaryUndone || now.Status != store.SummaryDone || now.Text != old[0].Text {
		t.Fatalf("old %s, new %s %q", was.Status, now.Status, now.Text)
	}
	if _, _, err := e.svc.RegenerateSummary(ctx, conv, "nope"); err == nil {
		t.Fatal("regenerated an unknown summary")
	}
}

// The test on the fake model through its real wire: 2,000 turns with a
// 16 KiB tool output every tenth, a window of 6,000 tokens. Every request is
// within the window (as the fake counts it), none is refused, every summary is
// done and one turn makes at most one, and the first turns' facts are still in
// the newest summary.
func TestLongConversationOnTheWire(t *testing.T) {
	turns := 2000
	if testing.Short() {
		turns = 300
	}
	const window = 6000
	fake := llmtest.New()
	defer fake.Close()
	fake.SetWindow(window)
	fake.Handle(func(r llmtest.Received) bool { return strings.HasPrefix(r.System, "You summarise a conversation") },
		func(r llmtest.Received) llmtest.Turn { return llmtest.Turn{Text: []string{facts(r.Messages[0].Text)}} })
	fake.Handle(func(r llmtest.Received) bool {
		last := r.Messages[len(r.Messages)-1]
		return last.Role == llm.RoleUser && strings.Contains(last.Text, "TOOL")
	}, func(llmtest.Received) llmtest.Turn {
		return llmtest.Turn{ToolCalls: []llm.ToolCall{{ID: "c1", Name: "BIG", Arguments: []byte(`{}`)}}}
	})
	fake.Fallback(func(llmtest.Received) llmtest.Turn { return llmtest.Turn{Text: []string{"ok"}} })
	prov, err := llm.New(llm.Config{Kind: "openai", BaseURL: fake.OpenAIURL(), APIKey: "k"})
	if err != nil {
		t.Fatal(err)
	}
	e := wireEnv(t, prov, 16<<10)
	conv := e.conversation()
	filler := strings.Repeat("Some words to fill the message up. ", 40)
	checked := 0
	check := func() {
		for _, r := range fake.Requests() {
			checked++
			if r.Over || r.Tokens > window {
				t.Fatalf("a request of %d tokens (over: %v), over the window of %d", r.Tokens, r.Over, window)
			}
		}
		fake.ForgetRequests()
	}
	for i := 1; i <= turns; i++ {
		text := fmt.Sprintf("FACT: turn %d code K%d\n%s", i, i*7, filler)
		if i%10 == 0 {
			text += " TOOL"
		}
		if out := e.turn(conv, text); out.Status != StatusEnded {
			t.Fatalf("turn %d: %s %s", i, out.Status, out.Error)
		}
		if i%100 == 0 {
			check()
		}
	}
	check()
	sums, err := e.st.Summaries(context.Background(), conv)
	if err != nil {
		t.Fatal(err)
	}
	runs := map[string]int{}
	for i, s := range sums {
		runs[s.RunID]++
		if s.Status != store.SummaryDone {
			t.Errorf("summary %d: %s %s", i, s.Status, s.Error)
		}
	}
	for run, n := range runs {
		if n != 1 {
			t.Errorf("run %s made %d summaries", run, n)
		}
	}
	if len(sums) < turns/40 || len(runs) > turns/2 {
		t.Errorf("%d summaries over %d turns", len(sums), turns)
	}
	last := sums[len(sums)-1].Text
	for _, fact := range []string{"FACT: turn 1 code K7", "FACT: turn 2 code K14", "FACT: turn 3 code K21"} {
		if !strings.Contains(last, fact) {
			t.Errorf("the newest summary lost %q", fact)
		}
	}
	t.Logf("%d turns, %d requests, %d summaries", turns, checked, len(sums))
}

// facts keeps the "FACT:" lines of a text, once each, oldest first: an extractive
// summary.
func facts(text string) string {
	var out []string
	seen := map[string]bool{}
	for _, line := range strings.Split(text, "\n") {
		if i := strings.Index(line, "FACT:"); i >= 0 && !seen[line[i:]] {
			seen[line[i:]] = true
			out = append(out, line[i:])
		}
	}
	return strings.Join(out, "\n")
}

// wireEnv is a service on the real agent over a provider, counting tokens as the
// app does, with the BIG action.
func wireEnv(t *testing.T, prov llm.Provider, big int) *env {
	t.Helper()
	agent := bigAgent(t, prov, big)
	st, err := store.Open(context.Background(), t.TempDir()+"/wisp.db")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	e := &env{t: t, st: st, frames: &frames{}}
	e.svc = New(Options{Store: st, Agent: agent, Events: e.frames, Logger: quiet, NoTitles: true,
		Window:  func(context.Context) (int, string) { return 6000, WindowConfig },
		Counter: func(m string) Counter { return tokens.For(m) }})
	if err := e.svc.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(e.svc.Stop)
	return e
}
