package mcp

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// maxShownPATH bounds the PATH a command-not-found error shows.
const maxShownPATH = 1000

// lookPath finds a stdio server's command in path (the server's own PATH: the
// login shell's, not necessarily Wisp's, which exec.LookPath would search). A
// command with a slash is taken as it is (a relative one from the server's cwd);
// relative folders of path are skipped. The error names the PATH searched and from
// where it came.
func lookPath(command, path, from string) (string, error) {
	if strings.Contains(command, "/") {
		return command, nil
	}
	for dir := range strings.SplitSeq(path, ":") {
		if !filepath.IsAbs(dir) {
			continue
		}
		exe := filepath.Join(dir, command)
		if st, err := os.Stat(exe); err == nil && st.Mode().IsRegular() && st.Mode().Perm()&0o111 != 0 {
			return exe, nil
		}
	}
	shown := path
	if len(shown) > maxShownPATH {
		shown = shown[:maxShownPATH] + "…"
	}
	if shown == "" {
		shown = "(empty)"
	}
	return "", fmt.Errorf("command %q not found in PATH (%s): %s", command, from, shown)
}
