package runtime

import "strings"

// SystemPrompt is what a model call of a turn is told: the character's prompt, the
// memory (Options.Memory) and the prompts of the actions offered now, read afresh
// (a note saved in one step is in the next step's prompt).
func (a *Agent) SystemPrompt(set Settings) string {
	parts := []string{a.characterPrompt(set)}
	for _, p := range a.opts.Actions.Prompts() {
		parts = append(parts, strings.TrimSpace(p))
	}
	return strings.Join(parts, "\n\n")
}

// characterPrompt is the character's prompt and the memory: what a deliberation,
// which offers no action, is told before its instructions.
func (a *Agent) characterPrompt(set Settings) string {
	system := set.Character.SystemPrompt()
	if a.opts.Memory == nil {
		return system
	}
	if m := strings.TrimSpace(a.opts.Memory()); m != "" {
		system += "\n\n" + m
	}
	return system
}
