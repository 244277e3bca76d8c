package wire

// SearchResults answers GET /api/search: the best matches of the query, best first,
// and when more follow, the cursor that asks for them (docs/search.md).
type SearchResults struct {
	Results    []SearchResult `json:"results"`
	NextCursor string         `json:"nextCursor,omitempty"`
}

// SearchResult is one message that matches a search. Snippet is plain text (never
// markup: message text is untrusted) around the matches, cut with "…";
// Highlights are the matched terms in it.
type SearchResult struct {
	ConversationID    string      `json:"conversationId"`
	ConversationTitle string      `json:"conversationTitle"`
	MessageID         string      `json:"messageId"`
	Role              Role        `json:"role"`
	CreatedAt         int64       `json:"createdAt"` // ms since the epoch
	Snippet           string      `json:"snippet"`
	Highlights        []Highlight `json:"highlights"`
}

// Highlight is a stretch of a snippet, [Start, End) in UTF-16 code units: the
// indices of a JavaScript string, so the UI slices the snippet with them directly.
type Highlight struct {
	Start int `json:"start"`
	End   int `json:"end"`
}

func exampleSearchResults() []any {
	hit := SearchResult{ConversationID: exConv, ConversationTitle: "Trip to Zürich", MessageID: exMsg, Role: "assistant",
		CreatedAt: exTime, Snippet: "…the 9:02 train to Zürich 🚆 leaves from track 7…",
		Highlights: []Highlight{{Start: 10, End: 15}, {Start: 19, End: 25}, {Start: 41, End: 46}}}
	first := SearchResults{Results: []SearchResult{hit}, NextCursor: "AAAAAAAA8L8BAAAAAAAAAKzV5m8"}
	return []any{first, SearchResults{Results: []SearchResult{}}}
}
