package wire

// Memory is what the agent remembers about the user for one character: a Markdown
// document the user owns, put in the system prompt of every turn (docs/memory.md).
// GET and PUT /api/memory, POST /api/memory/undo, and the memory-updated frame.
type Memory struct {
	Text      string `json:"text"`
	UpdatedAt string `json:"updatedAt"` // "" when never written
	Version   int    `json:"version"`   // 0 when never written
	MaxBytes  int    `json:"maxBytes"`
	Character string `json:"character"`
}

// MemoryVersion is one version of the memory: its whole text, and who made it.
type MemoryVersion struct {
	Version   int    `json:"version"`
	Text      string `json:"text"`
	UpdatedAt string `json:"updatedAt"`
	Source    string `json:"source"` // "user" | "agent" | "undo"
}

// MemoryHistory answers GET /api/memory/history: the versions kept, newest first
// (at most 100).
type MemoryHistory struct {
	Versions []MemoryVersion `json:"versions"`
}

// TypeMemoryUpdated is the /ws frame of every change of the memory.
const TypeMemoryUpdated = "memory-updated"

// MemoryUpdated says the memory changed (an edit, a saved REMEMBER, an undo).
type MemoryUpdated struct {
	Head
	Memory Memory `json:"memory"`
}

// NewMemoryUpdated is a memory-updated frame.
func NewMemoryUpdated(m Memory) MemoryUpdated { return MemoryUpdated{Head{TypeMemoryUpdated}, m} }

func exampleMemory() Memory {
	return Memory{Text: "- Prefers short answers\n- Works on Wisp in Go", UpdatedAt: exISO, Version: 3, MaxBytes: 16384,
		Character: "Wisp"}
}

func exampleMemoryHistory() MemoryHistory {
	return MemoryHistory{Versions: []MemoryVersion{
		{Version: 3, Text: "- Prefers short answers\n- Works on Wisp in Go", UpdatedAt: exISO, Source: "agent"},
		{Version: 2, Text: "- Prefers short answers", UpdatedAt: exISO, Source: "undo"},
		{Version: 1, Text: "- Prefers short answers", UpdatedAt: exISO, Source: "user"},
	}}
}

// exampleMemoryApproval is an approval of a REMEMBER.
func exampleMemoryApproval() Approval {
	return Approval{ID: "ap_3", RunID: exRun, ConversationID: exConv, MessageID: "m1", CallID: "call_3", ToolName: "REMEMBER",
		Bases: []string{}, Grantable: []string{}, AlwaysAsk: []string{}, Kind: KindMemory, Text: "Works on Wisp in Go",
		Arguments: []byte("null"), Status: ApprovalPending, CreatedAt: exISO}
}
