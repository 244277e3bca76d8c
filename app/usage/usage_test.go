package usage

import (
	"bytes"
	"context"
	"log/slog"
	"math"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/wispapp/wisp/app/config"
	"github.com/wispapp/wisp/app/store"
	"github.com/wispapp/wisp/app/store/storetest"
	"github.com/wispapp/wisp/internal/clock"
	"github.com/wispapp/wisp/internal/fault"
	"github.com/wispapp/wisp/runtime/llm"
)

func TestTokensAreBounded(t *testing.T) {
	for _, tc := range []struct {
		name    string
		in      llm.Usage
		want    store.Tokens
		doubted bool
	}{
		{"as reported", llm.Usage{InputTokens: 100, OutputTokens: 5, CacheReadTokens: 60, CacheWriteTokens: 30},
			store.Tokens{Input: 100, Output: 5, CacheRead: 60, CacheWrite: 30}, false},
		{"nothing", llm.Usage{}, store.Tokens{}, false},
		{"negative", llm.Usage{InputTokens: -5, OutputTokens: 7, CacheReadTokens: -1},
			store.Tokens{Output: 7}, true},
		{"huge", llm.Usage{InputTokens: math.MaxInt, OutputTokens: MaxTokens + 1, CacheWriteTokens: 3},
			store.Tokens{Input: 3, CacheWrite: 3}, true},
		{"the most", llm.Usage{InputTokens: MaxTokens, OutputTokens: MaxTokens},
			store.Tokens{Input: MaxTokens, Output: MaxTokens}, false},
		{"a prompt smaller than its cache", llm.Usage{InputTokens: 10, CacheReadTokens: 40, CacheWriteTokens: 2},
			store.Tokens{Input: 42, CacheRead: 40, CacheWrite: 2}, true},
	} {
		got, doubted := Tokens(tc.in)
		if got != tc.want || doubted != tc.doubted {
			t.Errorf("%s: %+v %v, want %+v %v", tc.name, got, doubted, tc.want, tc.doubted)
		}
	}
}

type testEnv struct {
	st    *store.Store
	svc   *Service
	clock *clock.Fake
	log   *bytes.Buffer
	mu    sync.Mutex
	file  map[string]config.Price
}

func (e *testEnv) setPrices(p map[string]config.Price) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.file = p
}

// newEnv is a service on a fresh database holding conversation c1, in a time zone
// ten hours east of UTC, at 09:30 local time on 2026-11-28.
func newEnv(t *testing.T) *testEnv {
	t.Helper()
	loc := time.FixedZone("east", 10*3600)
	e := &testEnv{st: storetest.Open(t, "c1"), clock: clock.NewFake(time.Date(2026, 11, 28, 9, 30, 0, 0, loc)), log: &bytes.Buffer{}}
	e.svc = New(Options{Store: e.st, Clock: e.clock, Location: loc, Provider: func() string { return "anthropic" },
		Prices: func() map[string]config.Price {
			e.mu.Lock()
			defer e.mu.Unlock()
			return e.file
		},
		Logger: slog.New(slog.NewTextHandler(e.log, nil))})
	return e
}

func TestRecordAndTotals(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	sonnet := llm.Usage{InputTokens: 1830, OutputTokens: 95, CacheReadTokens: 1200, CacheWriteTokens: 300}
	e.svc.Record(ctx, Entry{ConversationID: "c1", RunID: "r1", MessageID: "m1", Kind: KindChat, Model: "claude-sonnet-4-5", Usage: sonnet})
	e.svc.Record(ctx, Entry{ConversationID: "c1", Kind: KindTitle, Model: "llama3.2", Usage: llm.Usage{InputTokens: 40, OutputTokens: 4}})
	e.svc.Record(ctx, Entry{ConversationID: "c1", Kind: KindChat, Model: "llama3.2"}) // nothing reported: nothing recorded
	e.svc.Record(ctx, Entry{Kind: KindV1, Model: "claude-sonnet-4-5", Usage: llm.Usage{InputTokens: 1000}})

	got, err := e.svc.Conversation(ctx, "c1")
	want := (330*3 + 1200*0.3 + 300*3.75 + 95*15) / 1e6
	if err != nil || got.Calls != 2 || got.Unpriced != 1 || math.Abs(got.CostUSD-want) > 1e-12 ||
		got.Usage.InputTokens != 1870 || got.Usage.CacheReadTokens != 1200 || got.Usage.CacheWriteTokens != 300 || got.Usage.OutputTokens != 99 {
		t.Errorf("conversation: %+v, %v (cost want %v)", got, err, want)
	}
	msgs, err := e.st.MessagesUsage(ctx, []string{"m1"})
	if m := msgs["m1"]; err != nil || m.Model != "claude-sonnet-4-5" || m.CostUSD == nil || math.Abs(*m.CostUSD-want) > 1e-12 {
		t.Errorf("the reply's usage: %+v, %v", m, err)
	}
	if _, err := e.svc.Conversation(ctx, "nope"); fault.KindOf(err) != fault.NotFound {
		t.Errorf("an unknown conversation: %v", err)
	}

	r, err := e.svc.Report(ctx, 1)
	if err != nil || len(r.Rows) != 2 || r.Rows[0].Model != "claude-sonnet-4-5" || r.Rows[0].Calls != 2 || r.Rows[0].Day != "2026-11-28" ||
		r.Rows[1].Model != "llama3.2" || r.Rows[1].Unpriced != 1 || r.Total.InputTokens != 2870 {
		t.Errorf("report: %+v, %v", r, err)
	}
	if math.Abs(r.CostUSD-(want+1000*3/1e6)) > 1e-12 {
		t.Errorf("report cost: %v", r.CostUSD)
	}
}

// A record is costed at the price when it is made: changing a price changes what
// comes after, not what was.
func TestRecordCostsAtThePriceThen(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	u := llm.Usage{InputTokens: 1_000_000}
	e.svc.Record(ctx, Entry{ConversationID: "c1", Kind: KindChat, Model: "local", Usage: u})
	e.setPrices(map[string]config.Price{"local": {Input: 2}})
	e.svc.Record(ctx, Entry{ConversationID: "c1", Kind: KindChat, Model: "local", Usage: u})
	e.setPrices(map[string]config.Price{"local": {Input: 5}})
	e.svc.Record(ctx, Entry{ConversationID: "c1", Kind: KindChat, Model: "local-2", Usage: u})
	got, err := e.svc.Conversation(ctx, "c1")
	if err != nil || got.CostUSD != 7 || got.Unpriced != 1 || got.Calls != 3 {
		t.Errorf("conversation: %+v, %v", got, err)
	}
}

// Days are the local time zone's: a record at 23:30 UTC the day before is today
// here; the report covers today and the days before it, newest first.
func TestReportDays(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	u := llm.Usage{InputTokens: 10, OutputTokens: 1}
	record := func(at time.Time) {
		e.clock = clock.NewFake(at)
		e.svc.opts.Clock = e.clock
		e.svc.Record(ctx, Entry{Kind: KindV1, Model: "m", Usage: u})
	}
	record(time.Date(2026, 11, 27, 23, 30, 0, 0, time.UTC)) // 09:30 on the 28th, local
	record(time.Date(2026, 11, 27, 13, 0, 0, 0, time.UTC))  // 23:00 on the 27th, local
	record(time.Date(2026, 10, 30, 0, 0, 0, 0, time.UTC))   // the 30th of October
	record(time.Date(2026, 10, 29, 0, 0, 0, 0, time.UTC))   // 31 days ago
	e.svc.opts.Clock = clock.NewFake(time.Date(2026, 11, 28, 1, 0, 0, 0, time.UTC))

	for _, tc := range []struct {
		days int
		want []string
	}{
		{1, []string{"2026-11-28"}},
		{2, []string{"2026-11-28", "2026-11-27"}},
		{30, []string{"2026-11-28", "2026-11-27", "2026-10-30"}},
		{366, []string{"2026-11-28", "2026-11-27", "2026-10-30", "2026-10-29"}},
	} {
		r, err := e.svc.Report(ctx, tc.days)
		var got []string
		for _, row := range r.Rows {
			got = append(got, row.Day)
		}
		if err != nil || strings.Join(got, " ") != strings.Join(tc.want, " ") {
			t.Errorf("%d days: %v, %v; want %v", tc.days, got, err, tc.want)
		}
		if err == nil && r.Total.InputTokens != 10*len(tc.want) {
			t.Errorf("%d days: total %+v", tc.days, r.Total)
		}
	}
	for _, n := range []int{0, -1, 367} {
		if _, err := e.svc.Report(ctx, n); fault.KindOf(err) != fault.Invalid {
			t.Errorf("%d days: %v", n, err)
		}
	}
	if r, err := newEnv(t).svc.Report(ctx, 30); err != nil || r.Rows == nil || len(r.Rows) != 0 {
		t.Errorf("no usage: %+v, %v (rows must be [], not null)", r, err)
	}
}

// A provider's hostile numbers are not recorded as they are, and say so in the log;
// a record that cannot be saved is logged, never a failure of its caller.
func TestRecordNeverFails(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	e.svc.Record(ctx, Entry{ConversationID: "c1", Kind: KindChat, Model: "gpt-4o",
		Usage: llm.Usage{InputTokens: -50, OutputTokens: math.MaxInt, CacheReadTokens: 7}})
	got, _ := e.svc.Conversation(ctx, "c1")
	if got.Usage.InputTokens != 7 || got.Usage.OutputTokens != 0 || got.Usage.CacheReadTokens != 7 || got.CostUSD < 0 {
		t.Errorf("hostile usage recorded as %+v", got)
	}
	if !strings.Contains(e.log.String(), "usage from the provider ignored") {
		t.Errorf("log: %s", e.log)
	}
	e.svc.Record(ctx, Entry{Kind: "mystery", Model: "m", Usage: llm.Usage{InputTokens: 1}})
	if !strings.Contains(e.log.String(), "unknown kind") {
		t.Errorf("log: %s", e.log)
	}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	e.svc.Record(cancelled, Entry{ConversationID: "c1", Kind: KindChat, Model: "m", Usage: llm.Usage{InputTokens: 1}})
	if got, _ := e.svc.Conversation(ctx, "c1"); got.Calls != 2 {
		t.Errorf("a stopped run's usage was not recorded: %+v", got)
	}
	e.st.Close()
	e.svc.Record(ctx, Entry{ConversationID: "c1", Kind: KindChat, Model: "m", Usage: llm.Usage{InputTokens: 1}})
	if !strings.Contains(e.log.String(), "record usage") || !strings.Contains(e.log.String(), "level=ERROR") {
		t.Errorf("a failed write is not logged: %s", e.log)
	}
}

// A deleted conversation is not found, and its usage stays in the report.
func TestDeletedConversationStaysInTheReport(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	e.svc.Record(ctx, Entry{ConversationID: "c1", Kind: KindChat, Model: "gpt-4o", Usage: llm.Usage{InputTokens: 1_000_000}})
	if err := e.st.DeleteConversation(ctx, "c1"); err != nil {
		t.Fatal(err)
	}
	if _, err := e.svc.Conversation(ctx, "c1"); fault.KindOf(err) != fault.NotFound {
		t.Errorf("deleted conversation: %v", err)
	}
	r, err := e.svc.Report(ctx, 1)
	if err != nil || len(r.Rows) != 1 || r.CostUSD != 2.5 {
		t.Errorf("report: %+v, %v", r, err)
	}
}
