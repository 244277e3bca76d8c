package app

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/anthropics/anthropic-sdk-go"
	"github.com/openai/openai-go/v3"

	"github.com/wispapp/wisp/app/wire"
	"github.com/wispapp/wisp/runtime"
	"github.com/wispapp/wisp/runtime/llm"
	"github.com/wispapp/wisp/runtime/llm/llmtest"
)

// titleUsage is what the fake model says a title cost.
var titleUsage = llm.Usage{InputTokens: 40, OutputTokens: 4}

// startPriced is a Wisp on the fake model speaking provider's wire format (openai or
// anthropic) as model, with the prices of file (wisp.json's "prices"), making titles.
func startPriced(t *testing.T, provider, model, prices string) *chatApp {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "wisp.json"), []byte(`{"prices": `+prices+`}`), 0o600); err != nil {
		t.Fatal(err)
	}
	fake := llmtest.New()
	t.Cleanup(fake.Close)
	fake.Handle(func(r llmtest.Received) bool { return r.System == runtime.TitleInstruction },
		func(llmtest.Received) llmtest.Turn {
			return llmtest.Turn{Text: []string{"Greetings"}, Usage: titleUsage}
		})
	env := map[string]string{"WISP_PROVIDER": provider, "WISP_MODEL": model}
	if provider == "anthropic" {
		env["WISP_BASE_URL"], env["ANTHROPIC_API_KEY"] = fake.AnthropicURL(), "k"
	} else {
		env["WISP_BASE_URL"], env["OPENAI_API_KEY"] = fake.OpenAIURL(), "k"
	}
	a := startApp(t, testOptions(t, dir, env))
	t.Cleanup(func() { a.Stop() })
	return &chatApp{App: a, t: t, fake: fake}
}

// conversationUsage waits until the conversation's usage counts calls model calls.
func (c *chatApp) conversationUsage(conv string, calls int) wire.ConversationUsage {
	c.t.Helper()
	var u wire.ConversationUsage
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if code := c.call("GET", "/api/conversations/"+conv+"/usage", nil, &u); code != 200 {
			c.t.Fatalf("usage of %s: %d", conv, code)
		}
		if u.Calls >= calls {
			return u
		}
	}
	c.t.Fatalf("the usage of %s has %d calls, want %d: %+v", conv, u.Calls, calls, u)
	return u
}

func near(a, b float64) bool { return math.Abs(a-b) < 1e-12 }

// A reply's usage, cache tokens included, comes through each provider's wire format
// to the reply's message, the conversation's usage (with its title's) and the report,
// costed at the price in effect: wisp.json's over the built-in ones.
func TestUsageThroughBothProviders(t *testing.T) {
	for _, tc := range []struct {
		provider, model, prices string
		reply                   llm.Usage
		cost, titleCost         float64
	}{
		// wisp.json's gpt-4o-mini price wins over the built-in one, for its dated names too.
		{"openai", "gpt-4o-mini-2024-07-18", `{"gpt-4o-mini": {"input": 1, "output": 2, "cacheRead": 0.5, "cacheWrite": 1}}`,
			llm.Usage{InputTokens: 1000, OutputTokens: 50, CacheReadTokens: 600},
			(400*1 + 600*0.5 + 50*2) / 1e6, (40*1 + 4*2) / 1e6},
		// The built-in claude-sonnet-4-5 price.
		{"anthropic", "claude-sonnet-4-5-20250929", `{}`,
			llm.Usage{InputTokens: 2000, OutputTokens: 100, CacheReadTokens: 1200, CacheWriteTokens: 300},
			(500*3 + 1200*0.3 + 300*3.75 + 100*15) / 1e6, (40*3 + 4*15) / 1e6},
	} {
		t.Run(tc.provider, func(t *testing.T) {
			c := startPriced(t, tc.provider, tc.model, tc.prices)
			conv := c.newConversation()
			c.fake.Script(llmtest.Turn{Text: []string{"Hello!"}, Usage: tc.reply})
			var done frame
			for _, f := range c.stream(conv, "hi").all(t) {
				if f.typ() == "done" {
					done = f
				}
			}
			if u, _ := done.Data["usage"].(map[string]any); u["cacheReadTokens"] != float64(tc.reply.CacheReadTokens) ||
				u["cacheWriteTokens"] != float64(tc.reply.CacheWriteTokens) || u["inputTokens"] != float64(tc.reply.InputTokens) {
				t.Errorf("done frame: %v", done.Data)
			}

			var page wire.MessageList
			if code := c.call("GET", "/api/conversations/"+conv+"/messages", nil, &page); code != 200 || len(page.Messages) != 2 {
				t.Fatalf("messages: %d %+v", code, page)
			}
			if page.Messages[0].Usage != nil {
				t.Errorf("the user's message has usage: %+v", page.Messages[0].Usage)
			}
			mu := page.Messages[1].Usage
			want := wire.NewUsage(tc.reply.InputTokens, tc.reply.OutputTokens, tc.reply.CacheReadTokens, tc.reply.CacheWriteTokens)
			if mu == nil || mu.Model != tc.model || mu.Usage != want || mu.CostUSD == nil || !near(*mu.CostUSD, tc.cost) {
				t.Fatalf("the reply's usage: %+v (cost %v), want %+v, %v", mu, mu.CostUSD, want, tc.cost)
			}

			u := c.conversationUsage(conv, 2) // the reply and the title
			if u.Calls != 2 || u.Unpriced != 0 || !near(u.CostUSD, tc.cost+tc.titleCost) ||
				u.Usage.InputTokens != tc.reply.InputTokens+titleUsage.InputTokens || u.Usage.CacheReadTokens != tc.reply.CacheReadTokens {
				t.Errorf("conversation usage: %+v", u)
			}

			var report wire.UsageReport
			if code := c.call("GET", "/api/usage?days=1", nil, &report); code != 200 || len(report.Rows) != 1 {
				t.Fatalf("report: %d %+v", code, report)
			}
			row := report.Rows[0]
			if row.Day != time.Now().Format(time.DateOnly) || row.Model != tc.model || row.Calls != 2 || !near(report.CostUSD, u.CostUSD) ||
				report.Total != u.Usage {
				t.Errorf("report: %+v", report)
			}
		})
	}
}

// A price changed through the API applies to the next reply (hot), not to the ones
// before; a model without a price is counted as unpriced.
func TestPricesApplyHot(t *testing.T) {
	c := startPriced(t, "openai", "local-model", `{}`)
	conv := c.newConversation()
	send := func() {
		c.fake.Script(llmtest.Turn{Text: []string{"ok"}, Usage: llm.Usage{InputTokens: 1_000_000, OutputTokens: 1_000_000}})
		c.stream(conv, "hi").all(t)
	}
	send()
	if u := c.conversationUsage(conv, 2); u.Unpriced != 2 || u.CostUSD != 0 {
		t.Errorf("unpriced: %+v", u)
	}
	if code := c.call("PUT", "/api/config", map[string]any{"prices": map[string]any{"local-model": map[string]any{"input": 1, "output": 2}}}, nil); code != 200 {
		t.Fatalf("PUT prices: %d", code)
	}
	send()
	if u := c.conversationUsage(conv, 3); u.Unpriced != 2 || !near(u.CostUSD, 3) {
		t.Errorf("after the price: %+v", u)
	}
	if code := c.call("PUT", "/api/config", map[string]any{"prices": map[string]any{"local-model": map[string]any{"input": -1}}}, nil); code != 400 {
		t.Errorf("a negative price: %d", code)
	}
}

// A provider's impossible numbers are not believed: the reply ends as usual, and
// nothing negative or absurd is recorded.
func TestHostileUsageFromTheProvider(t *testing.T) {
	for _, provider := range []string{"openai", "anthropic"} {
		t.Run(provider, func(t *testing.T) {
			c := startPriced(t, provider, "gpt-4o", `{}`)
			conv := c.newConversation()
			c.fake.Script(llmtest.Turn{Text: []string{"ok"},
				Usage: llm.Usage{InputTokens: -100, OutputTokens: 1 << 50, CacheReadTokens: 7, CacheWriteTokens: -3}})
			c.stream(conv, "hi").all(t)
			msgs := c.messages(conv)
			if len(msgs) != 2 || msgs[1].Status != "ended" {
				t.Fatalf("the reply: %+v", msgs)
			}
			u := c.conversationUsage(conv, 2)
			for name, n := range map[string]int{"input": u.Usage.InputTokens, "output": u.Usage.OutputTokens,
				"cacheRead": u.Usage.CacheReadTokens, "cacheWrite": u.Usage.CacheWriteTokens} {
				if n < 0 || n > 1<<30 {
					t.Errorf("%s recorded as %d", name, n)
				}
			}
			if u.CostUSD < 0 || u.CostUSD > 1 {
				t.Errorf("cost %v", u.CostUSD)
			}
		})
	}
}

// A deleted conversation's usage is gone from its route (404) and stays in the
// report: the money was spent.
func TestDeletedConversationUsage(t *testing.T) {
	c := startPriced(t, "openai", "gpt-4o", `{}`)
	conv := c.newConversation()
	c.fake.Script(llmtest.Turn{Text: []string{"ok"}, Usage: llm.Usage{InputTokens: 1_000_000}})
	c.stream(conv, "hi").all(t)
	before := c.conversationUsage(conv, 2)
	if code := c.call("DELETE", "/api/conversations/"+conv, nil, nil); code != 200 {
		t.Fatalf("delete: %d", code)
	}
	var errBody wire.ErrorBody
	if code := c.call("GET", "/api/conversations/"+conv+"/usage", nil, &errBody); code != 404 || errBody.Error != "conversation not found" {
		t.Errorf("usage of a deleted conversation: %d %+v", code, errBody)
	}
	var report wire.UsageReport
	c.call("GET", "/api/usage", nil, &report)
	if report.Total != before.Usage || !near(report.CostUSD, before.CostUSD) || len(report.Rows) != 1 || report.Rows[0].Calls != 2 {
		t.Errorf("report after the delete: %+v, before %+v", report, before)
	}
	for _, q := range []string{"?days=0", "?days=367", "?days=week"} {
		if code := c.call("GET", "/api/usage"+q, nil, &errBody); code != 400 || !strings.Contains(errBody.Error, "days") {
			t.Errorf("/api/usage%s: %d %+v", q, code, errBody)
		}
	}
}

// /v1/messages and /v1/chat/completions report the usage of their model calls, cache
// tokens included, in each API's own fields, streamed or not (read by the official
// SDKs); each request is recorded, with no conversation.
func TestV1ReportsUsage(t *testing.T) {
	c := startPriced(t, "anthropic", "claude-haiku-4-5", `{}`)
	ctx := context.Background()
	used := llm.Usage{InputTokens: 500, OutputTokens: 20, CacheReadTokens: 300, CacheWriteTokens: 100}
	turn := func() { c.fake.Script(llmtest.Turn{Text: []string{"ok"}, Usage: used}) }

	ant := anthropicClient(c)
	turn()
	msg, err := ant.Messages.New(ctx, v1Params("hi"))
	if err != nil {
		t.Fatal(err)
	}
	if u := msg.Usage; u.InputTokens != 100 || u.CacheReadInputTokens != 300 || u.CacheCreationInputTokens != 100 || u.OutputTokens != 20 {
		t.Errorf("/v1/messages usage: %+v", u)
	}
	turn()
	stream := ant.Messages.NewStreaming(ctx, v1Params("hi"))
	var acc anthropic.Message
	for stream.Next() {
		if err := acc.Accumulate(stream.Current()); err != nil {
			t.Fatal(err)
		}
	}
	if err := stream.Err(); err != nil {
		t.Fatal(err)
	}
	stream.Close()
	if u := acc.Usage; u.InputTokens != 100 || u.CacheReadInputTokens != 300 || u.CacheCreationInputTokens != 100 || u.OutputTokens != 20 {
		t.Errorf("/v1/messages streamed usage: %+v", u)
	}

	oai := openaiClient(c, "unused")
	turn()
	got, err := oai.Chat.Completions.New(ctx, chatParams("hi"))
	if err != nil {
		t.Fatal(err)
	}
	if u := got.Usage; u.PromptTokens != 500 || u.PromptTokensDetails.CachedTokens != 300 || u.PromptTokensDetails.CacheWriteTokens != 100 ||
		u.CompletionTokens != 20 || u.TotalTokens != 520 {
		t.Errorf("/v1/chat/completions usage: %+v", u)
	}
	turn()
	params := chatParams("hi")
	params.StreamOptions = openai.ChatCompletionStreamOptionsParam{IncludeUsage: openai.Bool(true)}
	chunks := oai.Chat.Completions.NewStreaming(ctx, params)
	var last openai.CompletionUsage
	for chunks.Next() {
		if ch := chunks.Current(); ch.Usage.TotalTokens > 0 {
			last = ch.Usage
		}
	}
	if err := chunks.Err(); err != nil {
		t.Fatal(err)
	}
	chunks.Close()
	if last.PromptTokens != 500 || last.PromptTokensDetails.CachedTokens != 300 || last.CompletionTokens != 20 {
		t.Errorf("/v1/chat/completions streamed usage: %+v", last)
	}

	var report wire.UsageReport
	c.call("GET", "/api/usage?days=1", nil, &report)
	want := wire.NewUsage(4*500, 4*20, 4*300, 4*100)
	if len(report.Rows) != 1 || report.Rows[0].Calls != 4 || report.Total != want || report.CostUSD <= 0 {
		t.Errorf("report: %+v", report)
	}
}

// A run paused for an approval when Wisp closes records what it spent so far; the
// run resumed after the start records the rest under the same reply, whose usage is
// the sum.
func TestUsageOfARunPausedAcrossARestart(t *testing.T) {
	dir := t.TempDir()
	fake := llmtest.New()
	t.Cleanup(fake.Close)
	turns := shellTurns()
	turns[0].Usage = llm.Usage{InputTokens: 100, OutputTokens: 10, CacheWriteTokens: 80}
	turns[1].Usage = llm.Usage{InputTokens: 150, OutputTokens: 5, CacheReadTokens: 80}
	fake.Script(turns...)
	a := startShell(t, dir, fake)
	conv := a.conversation()
	paused, _ := a.send(conv, "say hi in the shell", "run_paused")
	approvalID, _ := paused["approvalId"].(string)
	a.Stop()

	b := startShell(t, dir, fake)
	if u := b.conversationUsage(conv, 1); u.Calls != 1 || u.Usage != wire.NewUsage(100, 10, 0, 80) {
		t.Fatalf("usage before the resume: %+v", u)
	}
	if code, out := b.do("POST", "/api/approvals/"+approvalID, map[string]any{"decision": "approve"}); code != 200 {
		t.Fatalf("approve: %d %v", code, out)
	}
	if u := b.conversationUsage(conv, 2); u.Calls != 2 || u.Usage != wire.NewUsage(250, 15, 80, 80) {
		t.Errorf("usage after the resume: %+v", u)
	}
	// The usage is recorded before the run's end is saved: wait for the reply.
	var last wire.Message
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		var page wire.MessageList
		b.call("GET", "/api/conversations/"+conv+"/messages", nil, &page)
		if last = page.Messages[len(page.Messages)-1]; last.Role == wire.RoleAssistant && last.Status == wire.RunEnded {
			break
		}
	}
	if last.Usage == nil || last.Usage.Usage != wire.NewUsage(250, 15, 80, 80) || last.Usage.Model != "fake" {
		t.Errorf("the reply's usage: %+v (%s %s)", last.Usage, last.Role, last.Status)
	}
}
