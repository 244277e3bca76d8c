package wire

// FileEdit is a change the agent made to a file (EDIT_FILE, WRITE_FILE; docs/files.md),
// as the chat shows it under its call: "Undo this edit" while Undoable and not
// undone. Created says the change made the file (its undo removes it).
type FileEdit struct {
	ID             string `json:"id"`
	RunID          string `json:"runId"`
	CallID         string `json:"callId"`
	ConversationID string `json:"conversationId"`
	Path           string `json:"path"`
	Created        bool   `json:"created"`
	// Undoable says the previous content was kept (it is not over the limit).
	Undoable  bool    `json:"undoable"`
	UndoneAt  *string `json:"undoneAt"`
	CreatedAt string  `json:"createdAt"`
}

// FileEditList answers GET /api/edits?callId=….
type FileEditList struct {
	Edits []FileEdit `json:"edits"`
}

// FileEditBody answers POST /api/edits/{id}/undo.
type FileEditBody struct {
	Edit FileEdit `json:"edit"`
}

func exampleFileEdits() []FileEdit {
	undone := "2025-11-21T09:05:00.000Z"
	return []FileEdit{
		{ID: "ed_1", RunID: exRun, CallID: "call_5", ConversationID: exConv, Path: "/home/ada/project/notes.md",
			Undoable: true, CreatedAt: exISO},
		{ID: "ed_2", RunID: exRun, CallID: "call_7", ConversationID: exConv, Path: "/home/ada/project/todo.md",
			Created: true, Undoable: true, UndoneAt: &undone, CreatedAt: exISO},
	}
}
