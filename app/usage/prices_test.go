package usage

import (
	"math"
	"testing"

	"github.com/wispapp/wisp/app/config"
	"github.com/wispapp/wisp/app/store"
)

func TestLookup(t *testing.T) {
	file := map[string]config.Price{
		"gpt-4o":      {Input: 9},            // the file's entry wins over the built-in one
		"my-local":    {},                    // free, but priced
		"my-local-v2": {Input: 1, Output: 2}, // a longer prefix of its own
	}
	p := PricesWith(file)
	for _, tc := range []struct {
		model string
		want  config.Price
		ok    bool
	}{
		{"gpt-4o", config.Price{Input: 9}, true},
		{"gpt-4o-2024-08-06", config.Price{Input: 9}, true},
		{"gpt-4o-mini", defaultPrices["gpt-4o-mini"], true},
		{"gpt-4o-mini-2024-07-18", defaultPrices["gpt-4o-mini"], true},
		{"gpt-4.1-nano-2025-04-14", defaultPrices["gpt-4.1-nano"], true},
		{"claude-sonnet-4-5-20250929", defaultPrices["claude-sonnet-4-5"], true},
		{"claude-sonnet-4-20250514", defaultPrices["claude-sonnet-4"], true},
		{"claude-opus-4-1-20250805", defaultPrices["claude-opus-4-1"], true},
		{"claude-3-5-haiku-latest", defaultPrices["claude-3-5-haiku"], true},
		{"my-local", config.Price{}, true},
		{"my-local-v2-q4", config.Price{Input: 1, Output: 2}, true},
		{"my-local-v3", config.Price{}, true},
		{"gpt-4orange", config.Price{}, false}, // a prefix counts only before "-"
		{"GPT-4o", config.Price{}, false},      // names are compared as written
		{"llama3.2:latest", config.Price{}, false},
		{"", config.Price{}, false},
	} {
		got, ok := p.Lookup(tc.model)
		if got != tc.want || ok != tc.ok {
			t.Errorf("%q: %+v %v, want %+v %v", tc.model, got, ok, tc.want, tc.ok)
		}
	}
	if _, ok := PricesWith(nil).Lookup("gpt-4o"); !ok {
		t.Error("the built-in prices without a file")
	}
}

// The built-in prices are valid prices, and each is its own longest match.
func TestDefaultPrices(t *testing.T) {
	c := config.Default()
	c.Prices = defaultPrices
	if err := c.Validate(); err != nil {
		t.Fatal(err)
	}
	p := PricesWith(nil)
	for name, want := range defaultPrices {
		if got, ok := p.Lookup(name + "-20990101"); !ok || got != want {
			t.Errorf("%s-20990101: %+v, want %+v", name, got, want)
		}
	}
}

func TestCost(t *testing.T) {
	sonnet := config.Price{Input: 3, Output: 15, CacheRead: 0.3, CacheWrite: 3.75}
	for _, tc := range []struct {
		name   string
		price  config.Price
		tokens store.Tokens
		want   float64
	}{
		{"nothing", sonnet, store.Tokens{}, 0},
		{"no cache", sonnet, store.Tokens{Input: 1_000_000, Output: 1_000_000}, 18},
		{"cache read and write", sonnet, store.Tokens{Input: 1830, Output: 95, CacheRead: 1200, CacheWrite: 300},
			(330*3 + 1200*0.3 + 300*3.75 + 95*15) / 1e6},
		{"all from the cache", sonnet, store.Tokens{Input: 1000, CacheRead: 1000}, 1000 * 0.3 / 1e6},
		// A prompt smaller than its cache part (Tokens never gives one) costs no fresh input.
		{"more cache than prompt", sonnet, store.Tokens{Input: 10, CacheRead: 100}, 100 * 0.3 / 1e6},
		{"free", config.Price{}, store.Tokens{Input: 5000, Output: 5000}, 0},
		{"the most there can be", sonnet, store.Tokens{Input: MaxTokens, Output: MaxTokens, CacheRead: MaxTokens / 2, CacheWrite: MaxTokens / 2},
			(MaxTokens/2*0.3 + MaxTokens/2*3.75 + MaxTokens*15) / 1e6},
	} {
		if got := Cost(tc.price, tc.tokens); math.Abs(got-tc.want) > 1e-12*max(1, tc.want) || math.IsNaN(got) {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
}
