// Package mdquote quotes untrusted text (a command, a tool's name, a program's
// output) as markdown code, so that nothing in it is read as markup.
package mdquote

import "strings"

// longestTicks is the longest run of backticks in s.
func longestTicks(s string) int {
	longest, run := 0, 0
	for i := 0; i < len(s); i++ {
		if s[i] == '`' {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	return longest
}

// Fenced quotes text as a markdown code block, whatever backticks it holds.
func Fenced(text string) string {
	f := strings.Repeat("`", max(3, longestTicks(text)+1))
	return f + "\n" + text + "\n" + f
}

// Inline quotes s as markdown inline code on one line, whatever backticks it holds.
func Inline(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	f := strings.Repeat("`", longestTicks(s)+1)
	return f + " " + s + " " + f
}
