package runtime

import "strings"

// Character is who the assistant is.
type Character struct {
	Name   string
	System string
	Bio    string
}

// SystemPrompt is what the model is told about itself.
func (c Character) SystemPrompt() string {
	var b strings.Builder
	b.WriteString(strings.TrimSpace(c.System))
	if name := strings.TrimSpace(c.Name); name != "" {
		b.WriteString("\n\nYour name is " + name + ".")
	}
	if bio := strings.TrimSpace(c.Bio); bio != "" {
		b.WriteString(" " + bio)
	}
	return strings.TrimSpace(b.String())
}

// Settings are the per-turn choices, read fresh for every turn so live config changes
// apply to the next one.
type Settings struct {
	Character      Character
	Model          string
	Temperature    *float64
	MaxTokens      int
	ThinkingBudget int
}
