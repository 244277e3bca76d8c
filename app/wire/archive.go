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
