// Package usage owns what the model calls Wisp makes cost: it records each call
// group's tokens as its provider reported them (bounded: a provider's numbers are not
// trusted) with their cost from the price table (built-in prices under wisp.json's
// "prices"), and answers the totals of a conversation and of the last days by model
// (docs/usage.md).
//
// It knows the store, the config's price type, the wire shapes (through view) and the
// runtime's usage type; nothing of HTTP, the hub or chat, which calls it through a
// function app wires.
package usage

import (
	"context"
	"errors"
	"log/slog"
	"time"

	"github.com/wispapp/wisp/app/config"
	"github.com/wispapp/wisp/app/store"
	"github.com/wispapp/wisp/internal/clock"
	"github.com/wispapp/wisp/internal/ids"
	"github.com/wispapp/wisp/runtime/llm"
)

// The kinds of model call groups.
const (
	KindChat    = "chat"    // a reply: a conversation's run, or a proactive thought
	KindSummary = "summary" // a summary of a conversation's older turns
	KindTitle   = "title"   // a conversation's title
	KindV1      = "v1"      // a /v1/messages or /v1/chat/completions request
)

// MaxTokens bounds each count of a record: a provider that reports more (or less than
// none) is not believed, and that count is recorded as 0. Sixteen steps of a
// two-million-token window stay far below it.
const MaxTokens = 1 << 30

// recordTimeout bounds how long a record may wait for the database: a reply never
// waits longer for its usage to be saved.
const recordTimeout = 5 * time.Second

// Entry is one model call group to record: what it was for (ids "" when none), its
// kind, the model that answered, and the usage its provider reported.
type Entry struct {
	ConversationID, RunID, MessageID, Kind, Model string
	Usage                                         llm.Usage
}

// Options are what the service needs.
type Options struct {
	Store *store.Store
	// Prices are wisp.json's prices, read at every record (nil: the built-in ones only).
	Prices func() map[string]config.Price
	// Provider is the kind of provider answering now (openai, anthropic, ollama).
	Provider func() string
	Clock    clock.Clock    // default the system clock
	Location *time.Location // the local time zone days are counted in; default time.Local
	Logger   *slog.Logger
}

// Service records usage and answers its totals.
type Service struct {
	opts Options
	log  *slog.Logger
}

// New builds the service.
func New(opts Options) *Service {
	if opts.Prices == nil {
		opts.Prices = func() map[string]config.Price { return nil }
	}
	if opts.Provider == nil {
		opts.Provider = func() string { return "" }
	}
	if opts.Clock == nil {
		opts.Clock = clock.System{}
	}
	if opts.Location == nil {
		opts.Location = time.Local
	}
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	return &Service{opts: opts, log: opts.Logger}
}

// Prices are the prices in effect now.
func (s *Service) Prices() Prices { return PricesWith(s.opts.Prices()) }

// Record saves what a model call group cost, at the price now. A group whose provider
// reported nothing is not recorded. It never fails its caller: a count that cannot be
// true is recorded as 0 and a failed write is logged, within recordTimeout, whatever
// ctx (a run that was stopped still spent its tokens).
func (s *Service) Record(ctx context.Context, e Entry) {
	tokens, doubted := Tokens(e.Usage)
	if doubted {
		s.log.Warn("usage from the provider ignored", "model", e.Model, "kind", e.Kind, "usage", e.Usage)
	}
	if tokens == (store.Tokens{}) {
		return
	}
	if !validKind(e.Kind) {
		s.log.Error("record usage: unknown kind", "kind", e.Kind)
		return
	}
	now := s.opts.Clock.Now()
	rec := store.UsageRecord{
		ID: ids.New(), At: now, Day: now.In(s.opts.Location).Format(time.DateOnly), Model: e.Model,
		Provider: s.opts.Provider(), Kind: e.Kind, ConversationID: e.ConversationID, RunID: e.RunID, MessageID: e.MessageID,
		Tokens: tokens,
	}
	if price, ok := s.Prices().Lookup(e.Model); ok {
		cost := Cost(price, tokens)
		rec.CostUSD = &cost
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), recordTimeout)
	defer cancel()
	if err := s.opts.Store.AddUsage(ctx, rec); err != nil {
		s.log.Error("record usage", "kind", e.Kind, "conversation", e.ConversationID, "run", e.RunID, "err", err)
	}
}

func validKind(k string) bool {
	return k == KindChat || k == KindSummary || k == KindTitle || k == KindV1
}

// Tokens are a provider's usage as Wisp keeps it, and whether any of it was not
// believed: a count below 0 or above MaxTokens is taken as 0, and a prompt smaller
// than what it read from and wrote to the cache is taken as their sum (the prompt
// includes them).
func Tokens(u llm.Usage) (store.Tokens, bool) {
	doubted := false
	bound := func(n int) int64 {
		if n < 0 || n > MaxTokens {
			doubted = true
			return 0
		}
		return int64(n)
	}
	t := store.Tokens{Input: bound(u.InputTokens), Output: bound(u.OutputTokens),
		CacheRead: bound(u.CacheReadTokens), CacheWrite: bound(u.CacheWriteTokens)}
	if cached := t.CacheRead + t.CacheWrite; t.Input < cached {
		t.Input, doubted = cached, true
	}
	return t, doubted
}

// isNotFound says whether err is the store's "not found".
func isNotFound(err error) bool { return errors.Is(err, store.ErrNotFound) }

// RecordThought records an autonomy tick's model call: a reply of no conversation.
func (s *Service) RecordThought(ctx context.Context, model string, u llm.Usage) {
	s.Record(ctx, Entry{Kind: KindChat, Model: model, Usage: u})
}
