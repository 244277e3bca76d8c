package config

import (
	"strings"
	"testing"
)

func TestValidateHands(t *testing.T) {
	for _, tc := range []struct {
		name string
		edit func(*Config)
		want string // "" valid
	}{
		{"defaults", func(*Config) {}, ""},
		{"a root", func(c *Config) { c.Files.Roots = []string{"/home/ada/project"} }, ""},
		{"relative root", func(c *Config) { c.Files.Roots = []string{"project"} }, "absolute path"},
		{"root is /", func(c *Config) { c.Files.Roots = []string{"/"} }, "whole machine"},
		{"NUL in root", func(c *Config) { c.Files.Roots = []string{"/a\x00b"} }, "a path of"},
		{"too many roots", func(c *Config) { c.Files.Roots = make([]string, MaxFileRoots+1) }, "at most"},
		{"hosts", func(c *Config) { c.Web.AllowHosts = []string{"nas.local", "192.168.1.20", "::1"} }, ""},
		{"URL as host", func(c *Config) { c.Web.AllowHosts = []string{"http://nas.local/"} }, "host name or an IP"},
		{"empty host", func(c *Config) { c.Web.AllowHosts = []string{""} }, "host name or an IP"},
		{"searxng", func(c *Config) { c.Web.Search = WebSearch{Provider: SearchSearXNG, BaseURL: "http://127.0.0.1:8888"} }, ""},
		{"searxng without URL", func(c *Config) { c.Web.Search = WebSearch{Provider: SearchSearXNG} }, "baseURL is required"},
		{"brave", func(c *Config) { c.Web.Search = WebSearch{Provider: SearchBrave, APIKey: "k"} }, ""},
		{"unknown provider", func(c *Config) { c.Web.Search = WebSearch{Provider: "google"} }, "provider must be"},
		{"bad search URL", func(c *Config) { c.Web.Search = WebSearch{Provider: SearchBrave, BaseURL: "ftp://x"} }, "http(s) URL"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := Default()
			tc.edit(&c)
			err := c.Validate()
			switch {
			case tc.want == "" && err != nil:
				t.Fatalf("refused: %v", err)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Fatalf("got %v, want an error with %q", err, tc.want)
			}
		})
	}
}
