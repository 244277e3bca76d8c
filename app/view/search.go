package view

import (
	"unicode/utf8"

	"github.com/wispapp/wisp/app/store"
	"github.com/wispapp/wisp/app/wire"
)

// SearchResult is the wire shape of a search hit: its highlights counted in UTF-16
// code units, as the UI's strings index.
func SearchResult(h store.SearchHit) wire.SearchResult {
	return wire.SearchResult{
		ConversationID: h.ConversationID, ConversationTitle: h.ConversationTitle, MessageID: h.MessageID,
		Role: wire.Role(h.Role), CreatedAt: h.CreatedAt.UnixMilli(), Snippet: h.Snippet, Highlights: utf16Spans(h.Snippet, h.Marks),
	}
}

// utf16Spans maps byte ranges of s, in increasing order, to UTF-16 ranges.
func utf16Spans(s string, spans []store.Span) []wire.Highlight {
	out := make([]wire.Highlight, 0, len(spans))
	at, units := 0, 0 // a byte offset of s and the UTF-16 units before it
	unitsAt := func(offset int) int {
		for at < offset && at < len(s) {
			r, size := utf8.DecodeRuneInString(s[at:])
			at += size
			units++
			if r >= 0x10000 {
				units++ // a surrogate pair
			}
		}
		return units
	}
	for _, sp := range spans {
		if sp.Start < at || sp.End < sp.Start || sp.End > len(s) {
			continue // out of order or out of range: not a stretch of this text
		}
		start := unitsAt(sp.Start)
		out = append(out, wire.Highlight{Start: start, End: unitsAt(sp.End)})
	}
	return out
}
