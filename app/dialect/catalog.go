package dialect

import (
	"encoding/json"

	"github.com/wispapp/wisp/app/wire"
	"github.com/wispapp/wisp/runtime"
)

// appendCatalog appends the frame-catalog frame (app/wire) of an event that seed 000's
// dialect and the delta dialect send alike: every event but text and callbacks.
func appendCatalog(b []byte, ev Event) ([]byte, error) {
	var f wire.Frame
	switch d := ev.Event.Data.(type) {
	case runtime.Output:
		f = wire.NewDone(ev.At.Full, ev.Agent, ev.Run, d.MessageID, d.History,
			wire.NewUsage(d.Usage.InputTokens, d.Usage.OutputTokens, d.Usage.CacheReadTokens, d.Usage.CacheWriteTokens))
	case runtime.Error:
		f = wire.NewChatError(d.Message, d.Recoverable, false)
	case runtime.Interrupted:
		f = wire.NewChatError("The reply was interrupted: "+d.Reason, false, true)
	case runtime.Thinking:
		f = wire.NewThinking(d.Text, d.Complete)
	case runtime.Custom:
		f = wire.NewCustom(d.CallID, d.Name, d.Data)
	case runtime.StatePatch:
		f = wire.NewStatePatch(d.CallID, d.Patches)
	case runtime.ToolStart:
		f = wire.NewToolStart(d.CallID, d.Name, d.Arguments)
	case runtime.ToolEnd:
		f = wire.NewToolEnd(d.CallID, d.Name, d.Result, d.Error)
	case runtime.ToolStatus:
		f = wire.NewToolStatus(d.CallID, d.Name, d.Status, d.TerminalRunID)
	case runtime.RunPaused:
		f = wire.NewRunPaused(d.Reason, d.PendingToolName, d.PendingToolCallID, d.ApprovalID, d.Approval)
	case runtime.RunResumed:
		f = wire.NewRunResumed(d.ApprovalID, d.Decision)
	case runtime.StreamResync:
		f = wire.NewStreamResync(d.Reason, d.FromSequence, d.MessageCount)
	case runtime.SummaryStart:
		f = wire.NewSummaryStart(wireSummary(d.Summary))
	case runtime.SummaryDelta:
		f = wire.NewSummaryDelta(d.SummaryID, d.Text)
	case runtime.SummaryEnd:
		f = wire.NewSummaryEnd(wireSummary(d.Summary))
	case runtime.Speech:
		f = wire.NewSpeech(d.Index, d.Text, d.Segment, d.Start, d.End, d.Final)
	default:
		return b, unknown(ev)
	}
	return appendJSON(b, f)
}

// appendJSON appends v encoded by encoding/json (for the rarer frames); a value that
// cannot be encoded becomes an error frame.
func appendJSON(b []byte, v any) ([]byte, error) {
	data, err := json.Marshal(v)
	if err != nil {
		return append(b, `{"type":"error","message":"internal error encoding an event"}`...), nil
	}
	return append(b, data...), nil
}

// wireSummary is a summary event's summary as the API's Summary.
func wireSummary(i runtime.SummaryInfo) wire.Summary {
	return wire.Summary{ID: i.ID, ConversationID: i.ConversationID, ThroughID: i.ThroughID, Covers: i.Covers,
		FromAt: i.FromAt, ThroughAt: i.ThroughAt, Text: i.Text, Status: wire.SummaryStatus(i.Status), Error: i.Error,
		RunID: i.RunID, Tokens: i.Tokens, CreatedAt: i.CreatedAt}
}
