package config

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestPricesAreRead(t *testing.T) {
	f := fileWith(t, `{"prices":{"gpt-4o":{"input":2.5,"output":10,"cacheRead":1.25},"llama3.2":{}}}`)
	want := map[string]Price{"gpt-4o": {Input: 2.5, Output: 10, CacheRead: 1.25}, "llama3.2": {}}
	if fmt.Sprint(f.Config.Prices) != fmt.Sprint(want) {
		t.Errorf("prices = %v, want %v", f.Config.Prices, want)
	}
	if d := Default(); d.Prices == nil || len(d.Prices) != 0 {
		t.Errorf("default prices = %#v, want an empty map", d.Prices)
	}
}

func TestInvalidPrices(t *testing.T) {
	many := make([]string, MaxPrices+1)
	for i := range many {
		many[i] = fmt.Sprintf(`"m%d":{}`, i)
	}
	cases := map[string]struct{ body, want string }{
		"negative":   {`{"prices":{"gpt-4o":{"input":-1}}}`, "prices.gpt-4o.input must be a number of dollars, 0 or more, got -1"},
		"negative 2": {`{"prices":{"x":{"cacheWrite":-0.5}}}`, "prices.x.cacheWrite"},
		"not number": {`{"prices":{"x":{"output":"cheap"}}}`, "cannot unmarshal"},
		"not object": {`{"prices":[1]}`, "cannot unmarshal"},
		"overflow":   {`{"prices":{"x":{"input":1e400}}}`, "cannot unmarshal number 1e400"},
		"empty name": {`{"prices":{" ":{}}}`, "a model name must be 1-200 characters"},
		"long name":  {`{"prices":{"` + strings.Repeat("a", 201) + `":{}}}`, "a model name must be 1-200 characters"},
		"too many":   {`{"prices":{` + strings.Join(many, ",") + `}}`, fmt.Sprintf("prices may name at most %d models", MaxPrices)},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "wisp.json")
			if err := os.WriteFile(path, []byte(tc.body), 0o600); err != nil {
				t.Fatal(err)
			}
			if _, err := Load(path); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want it to mention %q", err, tc.want)
			}
		})
	}
	// Not a number is refused even where JSON cannot say it (a caller building one).
	c := Default()
	c.Prices = map[string]Price{"x": {Output: math.NaN()}, "y": {Input: math.Inf(1)}}
	if err := c.Validate(); err == nil || !strings.Contains(err.Error(), "prices.x.output") || !strings.Contains(err.Error(), "prices.y.input") {
		t.Errorf("NaN and Inf: %v", err)
	}
}

// Prices change through the API like any setting: a merge patch adds or changes a
// model's price, null takes one out, and a wrong value changes nothing.
func TestPatchPrices(t *testing.T) {
	f := fileWith(t, `{"prices":{"a":{"input":1},"b":{"input":2}}}`)
	if err := f.Patch(patchOf(t, `{"prices":{"a":{"output":3},"b":null,"c":{"input":0.5}}}`)); err != nil {
		t.Fatal(err)
	}
	want := map[string]Price{"a": {Input: 1, Output: 3}, "c": {Input: 0.5}}
	if fmt.Sprint(f.Config.Prices) != fmt.Sprint(want) {
		t.Errorf("prices = %v, want %v", f.Config.Prices, want)
	}
	for patch, msg := range map[string]string{
		`{"prices":7}`:                      "prices must be an object",
		`{"prices":{"a":{"input":-2}}}`:     "prices.a.input must be a number of dollars",
		`{"prices":{"a":{"input":"lots"}}}`: "cannot unmarshal",
	} {
		if err := f.Patch(patchOf(t, patch)); err == nil || !strings.Contains(err.Error(), msg) {
			t.Errorf("%s: %v, want %q", patch, err, msg)
		}
		if fmt.Sprint(f.Config.Prices) != fmt.Sprint(want) {
			t.Errorf("%s changed the prices: %v", patch, f.Config.Prices)
		}
	}
}
