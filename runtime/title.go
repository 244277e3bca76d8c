package runtime

import (
	"context"
	"strings"
	"unicode/utf8"

	"github.com/wispapp/wisp/runtime/llm"
)

// TitleInstruction is the system prompt of a title request; tests route on it.
const TitleInstruction = "You name conversations. Reply with a short title (at most six words) for the conversation below: no quotes, no trailing punctuation, nothing else."

const maxTitleRunes = 60

// Title asks the model for a conversation title, and says what the request cost. It
// falls back to the first five words of the user's message when the model fails or
// answers nothing usable.
func (a *Agent) Title(ctx context.Context, userText, replyText string) (string, llm.Usage) {
	fallback := FallbackTitle(userText)
	prov, err := a.Provider()
	if err != nil {
		return fallback, llm.Usage{}
	}
	set := a.opts.Settings()
	var conv strings.Builder
	conv.WriteString("User: " + clip(userText, 2000))
	if replyText != "" {
		conv.WriteString("\n\nAssistant: " + clip(replyText, 2000))
	}
	resp, err := prov.Stream(ctx, llm.Request{
		Model: set.Model, System: TitleInstruction, MaxTokens: 32,
		Messages: []llm.Message{{Role: llm.RoleUser, Text: conv.String()}},
	}, func(llm.Delta) {})
	if err != nil {
		a.opts.Logger.Info("title generation failed, using the first words", "err", err)
		return fallback, resp.Usage
	}
	if t := cleanTitle(resp.Text); t != "" {
		return t, resp.Usage
	}
	return fallback, resp.Usage
}

// FallbackTitle is the first five words of a message.
func FallbackTitle(text string) string {
	words := strings.Fields(text)
	if len(words) == 0 {
		return "New Chat"
	}
	if len(words) > 5 {
		words = words[:5]
	}
	return clip(strings.Join(words, " "), maxTitleRunes)
}

func cleanTitle(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	s = strings.TrimPrefix(s, "Title:")
	s = strings.Trim(strings.TrimSpace(s), "\"'`*#.")
	return clip(strings.TrimSpace(s), maxTitleRunes)
}

func clip(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return strings.TrimSpace(string(r[:n])) + "…"
}
