package wire

// Usage and cost (docs/usage.md): what the model calls Wisp makes cost, in tokens as
// their providers report them and in US dollars from the price table.

// Usage is what model calls cost in tokens: InputTokens is the whole prompt (the
// tokens read from the provider's cache and written to it are part of it). It is
// also written in the words the current elizaOS client reads (promptTokens,
// completionTokens, totalTokens). Build it with NewUsage or UsageOf.
type Usage struct {
	InputTokens      int `json:"inputTokens"`
	OutputTokens     int `json:"outputTokens"`
	CacheReadTokens  int `json:"cacheReadTokens"`
	CacheWriteTokens int `json:"cacheWriteTokens"`
	PromptTokens     int `json:"promptTokens"`
	CompletionTokens int `json:"completionTokens"`
	TotalTokens      int `json:"totalTokens"`
}

// NewUsage is the usage of calls that took input tokens in (cacheRead and cacheWrite
// of them through the provider's cache) and gave output out.
func NewUsage(input, output, cacheRead, cacheWrite int) Usage {
	return Usage{InputTokens: input, OutputTokens: output, CacheReadTokens: cacheRead, CacheWriteTokens: cacheWrite,
		PromptTokens: input, CompletionTokens: output, TotalTokens: input + output}
}

// UsageOf is the usage of a reply that took input tokens in and gave output out,
// none of them through a cache.
func UsageOf(input, output int) Usage { return NewUsage(input, output, 0, 0) }

// MessageUsage is what one assistant message cost.
type MessageUsage struct {
	Model   string   `json:"model"`
	Usage   Usage    `json:"usage"`
	CostUSD *float64 `json:"costUsd"` // null when the model has no price
}

// ConversationUsage answers GET /api/conversations/{id}/usage: every model call made
// for the conversation (its replies, summaries and titles).
type ConversationUsage struct {
	ConversationID string  `json:"conversationId"`
	Usage          Usage   `json:"usage"`
	CostUSD        float64 `json:"costUsd"`
	Unpriced       int     `json:"unpriced"` // model calls whose model has no price (not in CostUSD)
	Calls          int     `json:"calls"`
}

// UsageRow is the usage of one model on one day.
type UsageRow struct {
	Day      string  `json:"day"` // local date, "2026-11-28"
	Model    string  `json:"model"`
	Usage    Usage   `json:"usage"`
	CostUSD  float64 `json:"costUsd"`
	Unpriced int     `json:"unpriced"`
	Calls    int     `json:"calls"`
}

// UsageReport answers GET /api/usage?days=N: the last N local days, today included.
type UsageReport struct {
	Rows    []UsageRow `json:"rows"` // newest day first, then model
	Total   Usage      `json:"total"`
	CostUSD float64    `json:"costUsd"`
}

// Price is what a model costs, in US dollars per million tokens.
type Price struct {
	Input      float64 `json:"input"`
	Output     float64 `json:"output"`
	CacheRead  float64 `json:"cacheRead"`
	CacheWrite float64 `json:"cacheWrite"`
}

func exampleMessageUsage(priced bool) *MessageUsage {
	u := &MessageUsage{Model: "llama3.2", Usage: NewUsage(1830, 95, 0, 0)}
	if priced {
		cost := 0.0039 // (330·3 + 1200·0.3 + 300·3.75 + 95·15) / 1e6
		u = &MessageUsage{Model: "claude-sonnet-4-5", Usage: NewUsage(1830, 95, 1200, 300), CostUSD: &cost}
	}
	return u
}

func usageExamples() map[string][]any {
	return map[string][]any{
		"ConversationUsage": {ConversationUsage{ConversationID: exConv, Usage: NewUsage(20480, 1210, 15000, 2000),
			CostUSD: 0.0412, Unpriced: 1, Calls: 9}},
		"UsageReport": {
			UsageReport{Rows: []UsageRow{
				{Day: "2025-11-21", Model: "claude-sonnet-4-5", Usage: NewUsage(20000, 1000, 15000, 2000), CostUSD: 0.0405, Calls: 6},
				{Day: "2025-11-21", Model: "llama3.2", Usage: NewUsage(480, 210, 0, 0), Unpriced: 3, Calls: 3},
				{Day: "2025-11-20", Model: "claude-sonnet-4-5", Usage: NewUsage(1000, 100, 0, 0), CostUSD: 0.0045, Calls: 1},
			}, Total: NewUsage(21480, 1310, 15000, 2000), CostUSD: 0.045},
			UsageReport{Rows: []UsageRow{}, Total: NewUsage(0, 0, 0, 0)},
		},
		"Price": {Price{Input: 3, Output: 15, CacheRead: 0.3, CacheWrite: 3.75}},
	}
}
