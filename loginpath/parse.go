package loginpath

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
)

// parse checks the login shell's PATH strictly and returns its entries: no control
// characters, bounded, absolute folders only (an empty or relative entry would run
// programs from wherever a process happens to be), cleaned and without repeats.
func parse(line string) ([]string, error) {
	if len(line) > maxPATH {
		return nil, fmt.Errorf("its PATH is longer than %d KiB", maxPATH>>10)
	}
	if strings.ContainsFunc(line, func(r rune) bool { return r < 0x20 || r == 0x7f }) {
		return nil, errors.New("its PATH has control characters")
	}
	entries := absolute(line)
	if len(entries) == 0 {
		return nil, errors.New("its PATH has no absolute folder")
	}
	if len(entries) > maxEntries {
		return nil, fmt.Errorf("its PATH has more than %d folders", maxEntries)
	}
	return entries, nil
}

// absolute are the absolute entries of a PATH, cleaned, each once.
func absolute(path string) []string {
	var out []string
	seen := map[string]bool{}
	for e := range strings.SplitSeq(path, ":") {
		if !filepath.IsAbs(e) {
			continue
		}
		e = filepath.Clean(e)
		if !seen[e] {
			seen[e] = true
			out = append(out, e)
		}
	}
	return out
}

// merge is the login shell's entries, then those of Wisp's own PATH it lacks.
func merge(login []string, current string) string {
	seen := make(map[string]bool, len(login))
	for _, e := range login {
		seen[e] = true
	}
	out := login
	for _, e := range absolute(current) {
		if !seen[e] {
			out = append(out, e)
		}
	}
	return strings.Join(out, ":")
}
