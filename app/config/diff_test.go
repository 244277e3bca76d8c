package config

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

func TestDiffReasons(t *testing.T) {
	cases := []struct {
		name   string
		change func(*Config)
		want   []string // reasons, in order
	}{
		{"nothing", func(*Config) {}, nil},
		{"port", func(c *Config) { c.Server.Port = 3000 }, []string{"Server port changed: 2138 → 3000"}},
		{"shell on", func(c *Config) { c.Features.ShellEnabled = true }, []string{"Shell access enabled"}},
		{"host", func(c *Config) { c.Server.Host = "0.0.0.0" }, []string{"Listen address changed: 127.0.0.1 → 0.0.0.0"}},
		{"token set", func(c *Config) { c.API.Token = "s3cret" }, []string{"API token set"}},
		{"time limit", func(c *Config) { c.Terminal.MaxDurationMs = 90_000 }, []string{"Terminal time limit changed: 5m → 1m30s"}},
		{"folder", func(c *Config) { c.Terminal.Cwd = "/srv" }, []string{"Terminal folder changed: (default) → /srv"}},
		{"origins", func(c *Config) { c.Server.AllowedOrigins = []string{"http://x"} }, []string{"Allowed origins changed"}},
		{"empty list is no change", func(c *Config) { c.Server.AllowedHosts = nil }, nil},
		{"hot too", func(c *Config) { c.Character.Name = "Ada"; c.Terminal.MaxConcurrent = 4 },
			[]string{"Character name changed: Wisp → Ada", "Terminal run limit changed: 2 → 4"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			next := Default()
			tc.change(&next)
			var got []string
			for _, c := range Diff(Default(), next) {
				got = append(got, c.Reason())
			}
			if !slices.Equal(got, tc.want) {
				t.Fatalf("reasons = %q, want %q", got, tc.want)
			}
		})
	}
}

func TestSecretReasonsNeverShowTheValue(t *testing.T) {
	old, next := Default(), Default()
	old.API.Token, next.API.Token = "first-secret", "second-secret"
	old.Model.APIKey = "sk-old"
	for _, c := range Diff(old, next) {
		r := c.Reason()
		if strings.Contains(r, "secret") || strings.Contains(r, "sk-old") {
			t.Errorf("reason %q shows a secret", r)
		}
	}
	if got := Diff(old, next)[0].Reason(); got != "API token changed" {
		t.Errorf("reason = %q", got)
	}
	if got := Diff(old, next)[1].Reason(); got != "Model API key removed" {
		t.Errorf("reason = %q", got)
	}
}

func TestReasonsDedupeAndCap(t *testing.T) {
	var r Reasons
	if !r.Set("features.shellEnabled", "Shell access enabled") {
		t.Fatal("first Set reported no change")
	}
	if r.Set("features.shellEnabled", "Shell access enabled") {
		t.Fatal("the same reason again reported a change")
	}
	if got := r.List(); !slices.Equal(got, []string{"Shell access enabled"}) {
		t.Fatalf("List = %q", got)
	}
	r.Set("other", "Shell access enabled") // another source saying the same thing
	if got := r.List(); len(got) != 1 {
		t.Fatalf("duplicate text listed twice: %q", got)
	}
	r.Set("features.shellEnabled", "Shell access disabled") // reworded in place
	if got := r.List(); !slices.Equal(got, []string{"Shell access disabled", "Shell access enabled"}) {
		t.Fatalf("List after rewording = %q", got)
	}

	r = Reasons{}
	for i := range MaxReasons + 25 {
		r.Set(fmt.Sprint("k", i), fmt.Sprint("reason ", i))
	}
	got := r.List()
	if len(got) != MaxReasons {
		t.Fatalf("%d reasons kept, want the cap %d", len(got), MaxReasons)
	}
	if got[0] != "reason 0" || got[1] != "reason 26" || got[MaxReasons-1] != fmt.Sprint("reason ", MaxReasons+24) {
		t.Fatalf("the first and the newest should be kept: %q … %q", got[:2], got[MaxReasons-1])
	}
	if !r.Delete("k0") || r.Delete("k0") || len(r.List()) != MaxReasons-1 {
		t.Fatal("Delete did not remove exactly once")
	}
	if empty := (&Reasons{}).List(); empty == nil || len(empty) != 0 {
		t.Fatal("an empty list must be [] (not null) on the wire")
	}
}
