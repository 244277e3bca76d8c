package approval

import (
	"errors"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/wispapp/wisp/app/wire"
)

// MaxMemoRunes bounds what a REMEMBER proposes and what the user edits it into.
const MaxMemoRunes = 2000

// Memo is a note the agent proposes to save to the user's memory (REMEMBER): the
// user saves it, edits it, or discards it (docs/memory.md).
type Memo struct {
	Text string
}

func (Memo) Kind() string     { return string(wire.KindMemory) }
func (Memo) Noun() string     { return "a note to remember" }
func (Memo) Declined() string { return "to save it to memory (they discarded it)" }

func (m Memo) fill(r *request) { r.Text = m.Text }

// CheckMemo checks a note for the memory and returns it trimmed: text (valid UTF-8),
// not empty, at most MaxMemoRunes characters, no control characters but newlines and
// no characters that change the direction of text (they could make the card show
// other words than the memory keeps).
func CheckMemo(text string) (string, error) {
	if !utf8.ValidString(text) {
		return "", errors.New("the text must be valid UTF-8")
	}
	text = strings.TrimSpace(text)
	switch n := utf8.RuneCountInString(text); {
	case n == 0:
		return "", errors.New("text is required: the note to remember")
	case n > MaxMemoRunes:
		return "", fmt.Errorf("the text is %d characters long, over the %d allowed", n, MaxMemoRunes)
	}
	for _, r := range text {
		if (unicode.IsControl(r) && r != '\n') || isBidiControl(r) {
			return "", fmt.Errorf("the text holds the control character %U: only newlines are allowed", r)
		}
	}
	return text, nil
}

// isBidiControl is a character that overrides or isolates the direction of text.
func isBidiControl(r rune) bool {
	return (r >= '\u202A' && r <= '\u202E') || (r >= '\u2066' && r <= '\u2069') || r == '\u200E' || r == '\u200F' || r == '\u061C'
}
