package shell

import (
	"fmt"
	"regexp"
	"strings"
	"unicode/utf8"
)

// ansi matches terminal escapes: CSI (colours, cursor), OSC (titles, links) and the
// two-character ones.
var ansi = regexp.MustCompile(`\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?|\x1b[@-Z\\-_]`)

// Plain is terminal output as text: escapes removed, line ends made "\n", a line
// redrawn with "\r" (a progress bar) reduced to what it showed last, invalid UTF-8
// replaced.
func Plain(s string) string {
	s = strings.ToValidUTF8(ansi.ReplaceAllString(s, ""), "\uFFFD")
	s = strings.ReplaceAll(s, "\r\n", "\n")
	if !strings.Contains(s, "\r") {
		return s
	}
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		if j := strings.LastIndex(strings.TrimRight(l, "\r"), "\r"); j >= 0 {
			lines[i] = l[j+1:]
		} else {
			lines[i] = strings.TrimRight(l, "\r")
		}
	}
	return strings.Join(lines, "\n")
}

// cutMarker stands for the middle of an output too long to send back whole.
const cutMarker = "\n… [%d bytes of output cut] …\n"

// HeadTail keeps the head and the tail of s within about limit bytes, with a marker
// saying how much was cut between them; cuts fall on UTF-8 boundaries.
func HeadTail(s string, limit int) string {
	if len(s) <= limit {
		return s
	}
	half := limit / 2
	headEnd := half
	for headEnd > 0 && !utf8.RuneStart(s[headEnd]) {
		headEnd--
	}
	tailStart := len(s) - half
	for tailStart < len(s) && !utf8.RuneStart(s[tailStart]) {
		tailStart++
	}
	return s[:headEnd] + fmt.Sprintf(cutMarker, tailStart-headEnd) + s[tailStart:]
}

// LastLines is the last n lines of s (without a trailing empty one), each at most
// width bytes.
func LastLines(s string, n, width int) []string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	for i, l := range lines {
		if len(l) > width {
			cut := width
			for cut > 0 && !utf8.RuneStart(l[cut]) {
				cut--
			}
			lines[i] = l[:cut] + "…"
		}
	}
	if len(lines) == 1 && lines[0] == "" {
		return nil
	}
	return lines
}
