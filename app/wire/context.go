package wire

// SummaryStatus is where a summary is: "streaming", "done", "failed" or "undone".
type SummaryStatus string

// The summary statuses.
const (
	SummaryStreaming SummaryStatus = "streaming"
	SummaryDone      SummaryStatus = "done"
	SummaryFailed    SummaryStatus = "failed"
	SummaryUndone    SummaryStatus = "undone"
)

// Summary stands for the messages of a branch from its first through ThroughID in the
// model's context (docs/context.md). The messages themselves stay as they are.
type Summary struct {
	ID             string        `json:"id"`
	ConversationID string        `json:"conversationId"`
	ThroughID      string        `json:"throughId"` // the last message it covers; the UI shows the row after it
	Covers         int           `json:"covers"`    // how many messages it stands for
	FromAt         string        `json:"fromAt"`    // ISO time of the first message covered
	ThroughAt      string        `json:"throughAt"` // ISO time of ThroughID
	Text           string        `json:"text"`
	Status         SummaryStatus `json:"status"`
	Error          string        `json:"error,omitempty"`
	RunID          string        `json:"runId"`
	Tokens         int           `json:"tokens"`
	CreatedAt      string        `json:"createdAt"`
}

// ContextInfo is the context meter: what the next turn of the branch shown would send.
type ContextInfo struct {
	ConversationID string `json:"conversationId"`
	Model          string `json:"model"`
	Window         int    `json:"window"`
	WindowSource   string `json:"windowSource"`        // "provider" | "config" | "default"
	Budget         int    `json:"budget"`              // window − reply max tokens − tools − margin
	Used           int    `json:"used"`                // tokens of system + memory + summary + messages the next turn sends, before its question
	SummaryAt      int    `json:"summaryAt"`           // Used at which the next summary is made (summarizeAt% of Budget)
	SummaryID      string `json:"summaryId,omitempty"` // the summary the context uses now
}

// SummaryRun answers POST /api/conversations/{id}/summaries/{sid}/regenerate: the run
// that makes the new summary (its stream is read like any run's) and the summary.
type SummaryRun struct {
	RunID   string  `json:"runId"`
	Summary Summary `json:"summary"`
}

// SummaryBody answers DELETE /api/conversations/{id}/summaries/{sid} (an undo).
type SummaryBody struct {
	Summary Summary `json:"summary"`
}

// The summary frames: on /ws, and in a chat stream (the delta and seed 000 dialects).
const (
	TypeConversationSummary = "conversation-summary"
	TypeSummaryStart        = "summary_start"
	TypeSummaryDelta        = "summary_delta"
	TypeSummaryEnd          = "summary_end"
)

// ConversationSummary: a summary of a conversation was made, failed or undone.
type ConversationSummary struct {
	Head
	ConversationID string  `json:"conversationId"`
	Summary        Summary `json:"summary"`
}

// NewConversationSummary is a conversation-summary frame.
func NewConversationSummary(convID string, s Summary) ConversationSummary {
	return ConversationSummary{Head{TypeConversationSummary}, convID, s}
}

// SummaryFrame opens (summary_start) or closes (summary_end) a summary in a chat stream.
type SummaryFrame struct {
	Head
	Summary Summary `json:"summary"`
}

// NewSummaryStart is a summary_start frame.
func NewSummaryStart(s Summary) SummaryFrame { return SummaryFrame{Head{TypeSummaryStart}, s} }

// NewSummaryEnd is a summary_end frame.
func NewSummaryEnd(s Summary) SummaryFrame { return SummaryFrame{Head{TypeSummaryEnd}, s} }

// SummaryDelta is more of a summary's text in a chat stream.
type SummaryDelta struct {
	Head
	SummaryID string `json:"summaryId"`
	Text      string `json:"text"`
}

// NewSummaryDelta is a summary_delta frame.
func NewSummaryDelta(id, text string) SummaryDelta {
	return SummaryDelta{Head{TypeSummaryDelta}, id, text}
}

func exampleSummary(status SummaryStatus) Summary {
	s := Summary{ID: "sum-1", ConversationID: exConv, ThroughID: "m40", Covers: 41, FromAt: exISO, ThroughAt: exISO,
		Text: "The user is planning a trip to Zürich on 3 March; the 9:02 train leaves from track 7.", Status: status,
		RunID: exRun, Tokens: 24, CreatedAt: exISO}
	if status == SummaryFailed {
		s.Text, s.Error = "", "the summary failed: the model sent nothing for 2m0s"
	}
	return s
}

func exampleContext() []any {
	return []any{
		ContextInfo{ConversationID: exConv, Model: "llama3.2:3b", Window: 8192, WindowSource: "provider", Budget: 5478,
			Used: 3120, SummaryAt: 4382, SummaryID: "sum-1"},
		ContextInfo{ConversationID: exConv, Model: "gpt-4o", Window: 8192, WindowSource: "default", Budget: 5478,
			Used: 0, SummaryAt: 4382},
	}
}

func summaryFrameExamples() []Frame {
	return []Frame{
		NewConversationSummary(exConv, exampleSummary(SummaryDone)), NewConversationSummary(exConv, exampleSummary(SummaryFailed)),
		NewSummaryStart(exampleSummary(SummaryStreaming)),
		NewSummaryDelta("sum-1", "The user is planning"),
		NewSummaryEnd(exampleSummary(SummaryDone)), NewSummaryEnd(exampleSummary(SummaryFailed)),
	}
}
