package wire

// ImportResult answers POST /api/import: how many conversations came in, how many
// were already there (skipped whole), the ids of the new ones, and the ones that
// could not be brought in with why.
type ImportResult struct {
	Imported      int             `json:"imported"`
	Skipped       int             `json:"skipped"`
	Conversations []string        `json:"conversations"`
	Failed        []ImportFailure `json:"failed"`
}

// ImportFailure is a conversation of an import file that was not brought in; nothing
// of it was saved.
type ImportFailure struct {
	ID    string `json:"id"`
	Title string `json:"title"`
	Error string `json:"error"`
}

func exampleImportResult() ImportResult {
	return ImportResult{Imported: 1, Skipped: 2, Conversations: []string{exConv},
		Failed: []ImportFailure{{ID: "c-clash", Title: "Stretching", Error: "a message, display message or run of it has an id another conversation already uses"}}}
}
