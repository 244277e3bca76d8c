package autostart

import (
	"bufio"
	"bytes"
	"fmt"
	"path/filepath"
	"strings"
)

// Content is the desktop entry that starts cmd at login. cmd[0] must be an absolute
// path; no argument may hold a control character (the Exec key cannot carry one).
func Content(cmd []string) (string, error) {
	if len(cmd) == 0 || !filepath.IsAbs(cmd[0]) {
		return "", fmt.Errorf("the autostart command must start with an absolute path, got %q", cmd)
	}
	exec, err := execValue(cmd)
	if err != nil {
		return "", err
	}
	return "[Desktop Entry]\n" +
		"Type=Application\n" +
		"Name=Wisp\n" +
		"Comment=Opens Wisp when you log in (Settings → Start at login)\n" +
		"Exec=" + exec + "\n" +
		"Icon=wisp\n" +
		"Terminal=false\n" +
		"X-GNOME-Autostart-enabled=true\n", nil
}

// execValue is cmd as the value of an Exec key (the Desktop Entry specification):
// each argument quoted when it holds a reserved character, "%" doubled (a field
// code otherwise), then the string escapes of every value applied, which double
// each backslash (so a quoted backslash is written as four).
func execValue(cmd []string) (string, error) {
	args := make([]string, len(cmd))
	for i, a := range cmd {
		if strings.ContainsFunc(a, func(r rune) bool { return r < 0x20 || r == 0x7f }) {
			return "", fmt.Errorf("the autostart command cannot hold a control character: %q", a)
		}
		args[i] = quoteArg(strings.ReplaceAll(a, "%", "%%"))
	}
	return strings.ReplaceAll(strings.Join(args, " "), `\`, `\\`), nil
}

// reserved are the characters that make an Exec argument need double quotes.
const reserved = " \t\n\"'\\><~|&;$*?#()`"

// quoteArg quotes an Exec argument when it needs it: inside the quotes, ", `, $ and
// \ are escaped with a backslash.
func quoteArg(a string) string {
	if a != "" && !strings.ContainsAny(a, reserved) {
		return a
	}
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range a {
		if strings.ContainsRune("\"`$\\", r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	b.WriteByte('"')
	return b.String()
}

// inEffect reports whether a session would start the entry: it has a [Desktop
// Entry] group, which does not say Hidden=true (the specification's "deleted") or
// X-GNOME-Autostart-enabled=false (how GNOME's and others' start-up settings turn
// an entry off without deleting it).
func inEffect(data []byte) bool {
	group, seen := "", false
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if strings.HasPrefix(line, "[") {
			group = line
			seen = seen || group == "[Desktop Entry]"
			continue
		}
		key, value, ok := strings.Cut(line, "=")
		if !ok || group != "[Desktop Entry]" {
			continue
		}
		switch key, value = strings.TrimSpace(key), strings.TrimSpace(value); {
		case key == "Hidden" && value == "true":
			return false
		case key == "X-GNOME-Autostart-enabled" && value == "false":
			return false
		}
	}
	return seen
}
