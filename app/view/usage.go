package view

import (
	"math"

	"github.com/wispapp/wisp/app/store"
	"github.com/wispapp/wisp/app/wire"
)

// Usage is the wire shape of stored token counts. Each count was bounded when it was
// recorded; a sum past what an int holds is shown as the most it holds.
func Usage(t store.Tokens) wire.Usage {
	return wire.NewUsage(clampInt(t.Input), clampInt(t.Output), clampInt(t.CacheRead), clampInt(t.CacheWrite))
}

func clampInt(n int64) int {
	return int(min(max(n, 0), math.MaxInt))
}

// MessageUsage is the wire shape of the usage recorded for a message.
func MessageUsage(m store.MessageUsage) *wire.MessageUsage {
	return &wire.MessageUsage{Model: m.Model, Usage: Usage(m.Tokens), CostUSD: m.CostUSD}
}
