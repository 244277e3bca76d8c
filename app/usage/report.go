package usage

import (
	"context"
	"time"

	"github.com/wispapp/wisp/app/store"
	"github.com/wispapp/wisp/app/view"
	"github.com/wispapp/wisp/app/wire"
	"github.com/wispapp/wisp/internal/fault"
)

// The days a report may cover, and how many it covers unless asked.
const (
	DefaultDays = 30
	MaxDays     = 366
)

// Conversation is the usage of a conversation's model calls: its replies, summaries
// and titles. A conversation that does not exist (deleted: its usage stays in the
// report, without it) is not found.
func (s *Service) Conversation(ctx context.Context, id string) (wire.ConversationUsage, error) {
	if _, err := s.opts.Store.Conversation(ctx, id); err != nil {
		if isNotFound(err) {
			return wire.ConversationUsage{}, fault.NotFound.Errorf("conversation not found")
		}
		return wire.ConversationUsage{}, err
	}
	t, err := s.opts.Store.ConversationUsage(ctx, id)
	if err != nil {
		return wire.ConversationUsage{}, err
	}
	return wire.ConversationUsage{ConversationID: id, Usage: view.Usage(t.Tokens), CostUSD: t.CostUSD,
		Unpriced: t.Unpriced, Calls: t.Calls}, nil
}

// Report is the usage of the last days local days, today included, by day and model:
// the newest day first.
func (s *Service) Report(ctx context.Context, days int) (wire.UsageReport, error) {
	if days < 1 || days > MaxDays {
		return wire.UsageReport{}, fault.Invalid.Errorf("days must be a whole number from 1 to %d, got %d", MaxDays, days)
	}
	now := s.opts.Clock.Now().In(s.opts.Location)
	since := time.Date(now.Year(), now.Month(), now.Day()-(days-1), 12, 0, 0, 0, s.opts.Location).Format(time.DateOnly)
	rows, err := s.opts.Store.UsageSince(ctx, since)
	if err != nil {
		return wire.UsageReport{}, err
	}
	out := wire.UsageReport{Rows: make([]wire.UsageRow, len(rows))}
	var total store.Tokens
	for i, r := range rows {
		out.Rows[i] = wire.UsageRow{Day: r.Day, Model: r.Model, Usage: view.Usage(r.Tokens), CostUSD: r.CostUSD,
			Unpriced: r.Unpriced, Calls: r.Calls}
		total.Input += r.Tokens.Input
		total.Output += r.Tokens.Output
		total.CacheRead += r.Tokens.CacheRead
		total.CacheWrite += r.Tokens.CacheWrite
		out.CostUSD += r.CostUSD
	}
	out.Total = view.Usage(total)
	return out, nil
}
