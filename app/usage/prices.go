package usage

import (
	"strings"

	"github.com/wispapp/wisp/app/config"
	"github.com/wispapp/wisp/app/store"
)

// defaultPrices are list prices in US dollars per million tokens of a few
// well-known models, as OpenAI (openai.com/api/pricing) and Anthropic
// (docs.claude.com/en/docs/about-claude/pricing) published them in late 2025, typed
// in by hand: Wisp never asks the network. Prices change; an entry of the same name
// in wisp.json's "prices" wins (docs/usage.md). OpenAI charges nothing extra to write
// its cache, so a cache write costs what input does; Anthropic's cache writes are its
// five-minute ones (1.25 × input), its reads 0.1 × input.
var defaultPrices = map[string]config.Price{
	"gpt-4o":       {Input: 2.50, CacheRead: 1.25, CacheWrite: 2.50, Output: 10},
	"gpt-4o-mini":  {Input: 0.15, CacheRead: 0.075, CacheWrite: 0.15, Output: 0.60},
	"gpt-4.1":      {Input: 2, CacheRead: 0.50, CacheWrite: 2, Output: 8},
	"gpt-4.1-mini": {Input: 0.40, CacheRead: 0.10, CacheWrite: 0.40, Output: 1.60},
	"gpt-4.1-nano": {Input: 0.10, CacheRead: 0.025, CacheWrite: 0.10, Output: 0.40},
	"gpt-5":        {Input: 1.25, CacheRead: 0.125, CacheWrite: 1.25, Output: 10},
	"gpt-5-mini":   {Input: 0.25, CacheRead: 0.025, CacheWrite: 0.25, Output: 2},
	"gpt-5-nano":   {Input: 0.05, CacheRead: 0.005, CacheWrite: 0.05, Output: 0.40},
	"o3":           {Input: 2, CacheRead: 0.50, CacheWrite: 2, Output: 8},
	"o4-mini":      {Input: 1.10, CacheRead: 0.275, CacheWrite: 1.10, Output: 4.40},

	"claude-opus-4":     {Input: 15, CacheRead: 1.50, CacheWrite: 18.75, Output: 75},
	"claude-opus-4-1":   {Input: 15, CacheRead: 1.50, CacheWrite: 18.75, Output: 75},
	"claude-opus-4-5":   {Input: 5, CacheRead: 0.50, CacheWrite: 6.25, Output: 25},
	"claude-sonnet-4":   {Input: 3, CacheRead: 0.30, CacheWrite: 3.75, Output: 15},
	"claude-sonnet-4-5": {Input: 3, CacheRead: 0.30, CacheWrite: 3.75, Output: 15},
	"claude-3-7-sonnet": {Input: 3, CacheRead: 0.30, CacheWrite: 3.75, Output: 15},
	"claude-haiku-4-5":  {Input: 1, CacheRead: 0.10, CacheWrite: 1.25, Output: 5},
	"claude-3-5-haiku":  {Input: 0.80, CacheRead: 0.08, CacheWrite: 1, Output: 4},
}

// Prices are the prices in effect: the built-in ones with the file's over them.
type Prices map[string]config.Price

// PricesWith is the built-in prices with file's entries over them.
func PricesWith(file map[string]config.Price) Prices {
	p := make(Prices, len(defaultPrices)+len(file))
	for name, price := range defaultPrices {
		p[name] = price
	}
	for name, price := range file {
		p[name] = price
	}
	return p
}

// Lookup finds model's price: the entry of its exact name, else the longest entry
// that model starts with followed by "-" (gpt-4o-2024-08-06 costs what gpt-4o does,
// gpt-4o-mini has its own). Names are compared as they are written.
func (p Prices) Lookup(model string) (config.Price, bool) {
	if price, ok := p[model]; ok {
		return price, true
	}
	best, found := "", false
	for name := range p {
		if len(name) > len(best) && strings.HasPrefix(model, name+"-") {
			best, found = name, true
		}
	}
	return p[best], found
}

// Cost is what tokens cost at price, in US dollars: the prompt's tokens that were not
// read from or written to the cache at the input price, the cache's at theirs, and
// the reply's at the output price.
func Cost(price config.Price, t store.Tokens) float64 {
	fresh := max(t.Input-t.CacheRead-t.CacheWrite, 0)
	return (float64(fresh)*price.Input + float64(t.CacheRead)*price.CacheRead +
		float64(t.CacheWrite)*price.CacheWrite + float64(t.Output)*price.Output) / 1e6
}
