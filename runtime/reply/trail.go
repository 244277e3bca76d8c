package reply

import "strings"

// Trail is the text shown when a saved reply is reloaded: the live reply with each
// callback segment's earlier states kept. Text segments give their text; a callback
// segment gives its history minus a trailing entry equal to its trimmed final text,
// joined with "\n", then "\n\n", then the final text (only the parts that are non-empty).
// The non-empty pieces are joined with "\n\n".
func Trail(segs []Segment) string {
	var b strings.Builder
	for _, s := range segs {
		piece := s.Text
		if s.Kind == KindCallback {
			piece = callbackTrail(s.Text, s.History)
		}
		if piece == "" {
			continue
		}
		if b.Len() > 0 {
			b.WriteString(sep)
		}
		b.WriteString(piece)
	}
	return b.String()
}

// TrailFromHistory is Trail for a saved message that has only its text and an
// actionCallbackHistory: the history's states, then the text, as one callback segment.
func TrailFromHistory(text string, history []string) string {
	return callbackTrail(text, history)
}

func callbackTrail(text string, history []string) string {
	if n := len(history); n > 0 && history[n-1] == strings.TrimSpace(text) {
		history = history[:n-1]
	}
	var b strings.Builder
	for _, h := range history {
		if strings.TrimSpace(h) == "" {
			continue // not written by Reply; tolerated in saved data
		}
		if b.Len() > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(h)
	}
	if text != "" {
		if b.Len() > 0 {
			b.WriteString(sep)
		}
		b.WriteString(text)
	}
	return b.String()
}
