package config

import (
	"fmt"
	"net"
	"path/filepath"
	"strings"
)

// maxPathBytes bounds one folder of files.roots.
const maxPathBytes = 4096

// validateFiles refuses a root that is not an absolute, clean path, and too many.
func validateFiles(f Files) []error {
	if len(f.Roots) > MaxFileRoots {
		return []error{fmt.Errorf("files.roots may name at most %d folders, got %d", MaxFileRoots, len(f.Roots))}
	}
	var errs []error
	for _, r := range f.Roots {
		switch {
		case r == "" || len(r) > maxPathBytes || strings.ContainsRune(r, 0):
			errs = append(errs, fmt.Errorf("files.roots: a folder must be a path of 1-%d bytes, got %q", maxPathBytes, clip(r)))
		case !filepath.IsAbs(r):
			errs = append(errs, fmt.Errorf("files.roots: %q must be an absolute path such as /home/ada/project", clip(r)))
		case r == "/":
			errs = append(errs, fmt.Errorf("files.roots: / is the whole machine: choose a folder"))
		}
	}
	return errs
}

// validateWeb refuses a host that is not a host name or an IP address, an unknown
// search provider, and a search server URL that is not http(s).
func validateWeb(w Web) []error {
	var errs []error
	if len(w.AllowHosts) > MaxAllowHosts {
		errs = append(errs, fmt.Errorf("web.allowHosts may name at most %d hosts, got %d", MaxAllowHosts, len(w.AllowHosts)))
	} else {
		for _, h := range w.AllowHosts {
			if !hostValid(h) {
				errs = append(errs, fmt.Errorf("web.allowHosts: %q must be a host name or an IP address, without a scheme or a path", clip(h)))
			}
		}
	}
	s := w.Search
	if !oneOf(s.Provider, "", SearchSearXNG, SearchBrave) {
		errs = append(errs, fmt.Errorf("web.search.provider must be %s, %s or empty (off), got %q", SearchSearXNG, SearchBrave, clip(s.Provider)))
	}
	if !voiceURLValid(s.BaseURL) {
		errs = append(errs, fmt.Errorf("web.search.baseURL must be an http(s) URL such as http://127.0.0.1:8888, or empty, got %q", clip(s.BaseURL)))
	}
	if s.Provider == SearchSearXNG && s.BaseURL == "" {
		errs = append(errs, fmt.Errorf("web.search.baseURL is required for %s: the address of your SearXNG", SearchSearXNG))
	}
	if len(s.APIKey) > maxVoiceKey {
		errs = append(errs, fmt.Errorf("web.search.apiKey is longer than %d bytes", maxVoiceKey))
	}
	return errs
}

// hostValid accepts an IP address or a DNS name (letters, digits, '-', '.', '_').
func hostValid(h string) bool {
	if net.ParseIP(h) != nil {
		return true
	}
	if h == "" || len(h) > 253 {
		return false
	}
	for _, r := range h {
		ok := r == '-' || r == '.' || r == '_' || (r >= '0' && r <= '9') || (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z')
		if !ok {
			return false
		}
	}
	return !strings.HasPrefix(h, ".") && !strings.Contains(h, "..")
}
