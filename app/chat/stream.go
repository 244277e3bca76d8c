package chat

import (
	"context"
	"io"
	"unicode/utf8"

	"github.com/wispapp/wisp/app/wire"
	"github.com/wispapp/wisp/internal/jsonstr"
	"github.com/wispapp/wisp/runtime"
)

// Frame is one SSE frame of the dashboard dialect: the run event's sequence number
// and its JSON.
type Frame struct {
	Seq  int64
	Data []byte
	// Final is set on the frame that ends the stream (done or error).
	Final bool
}

// source yields a run's items in order.
type source interface {
	next(ctx context.Context, i int) ([]Item, bool, error)
}

// Dialect is how a subscription renders a run's text (docs/chat.md).
type Dialect int

const (
	// Eliza is seed 000's dialect: every token frame carries the whole reply.
	Eliza Dialect = iota
	// Delta sends only what changed: a token's text and its segment, a callback's
	// segment, and the reply so far once when a stream resumes.
	Delta
	// Chunks is seed 001's chunk vocabulary (chunks.go): one chunk per event, a
	// resume going on exactly after the client's last one.
	Chunks
)

// Subscription reads one run's frames, from a live run or from the log on disk.
type Subscription struct {
	s       *Service
	runID   string
	src     source
	dialect Dialect
	after   int64
	i       int
	queue   []Item
	done    bool
	started bool
	// pending holds frames ready before the next item: a delta resume's backlog.
	pending []Frame
	scratch []byte
	// escFull is the JSON-escaped fullText (no quotes) of rawLen bytes of reply text.
	// Model text only ever extends fullText, so a token frame escapes only its delta
	// instead of the whole reply again.
	escFull []byte
	rawLen  int
	escOK   bool
}

// Subscribe follows a run from the event after seq `after` (0: from the start) in
// dialect d. Every item carries the reply after it, so fullText is right from the
// first frame.
func (s *Service) Subscribe(ctx context.Context, runID string, after int64, d Dialect) (*Subscription, error) {
	s.mu.Lock()
	run := s.byID[runID]
	s.mu.Unlock()
	sub := &Subscription{s: s, runID: runID, after: after, dialect: d}
	if run != nil {
		sub.src = run
		return sub, nil
	}
	src, err := s.storedRun(ctx, runID)
	if err != nil {
		return nil, err
	}
	sub.src = src
	return sub, nil
}

// Over reports whether the run has ended and has no event after the subscription's
// starting point: the stream would be empty.
func (sub *Subscription) Over() bool {
	src, ok := sub.src.(*storedSource)
	if !ok {
		return false
	}
	n := len(src.items)
	return n == 0 || src.items[n-1].Seq <= sub.after
}

// Next returns the next frame, or io.EOF after the final one.
func (sub *Subscription) Next(ctx context.Context) (Frame, error) {
	if !sub.started {
		sub.started = true
		if sub.dialect == Delta && sub.after > 0 {
			sub.resumeDelta()
		}
	}
	if len(sub.pending) > 0 {
		f := sub.pending[0]
		sub.pending = sub.pending[1:]
		return f, nil
	}
	for {
		if sub.done {
			return Frame{}, io.EOF
		}
		if len(sub.queue) == 0 {
			items, done, err := sub.src.next(ctx, sub.i)
			if err != nil {
				return Frame{}, err
			}
			if done {
				sub.done = true
				return Frame{}, io.EOF
			}
			sub.i += len(items)
			sub.queue = items
		}
		it := sub.queue[0]
		sub.queue = sub.queue[1:]
		if it.Event.Type != runtime.EventTextDelta {
			sub.escOK = false // a callback may have changed any part of the reply
		}
		if it.Seq <= sub.after {
			continue
		}
		if len(it.Cuts) > 0 {
			it = it.trimmed(sub.after)
		}
		data, ok := sub.encode(it)
		if !ok {
			continue
		}
		final := it.Final()
		sub.done = final
		return Frame{Seq: it.Seq, Data: data, Final: final}, nil
	}
}

// encode renders an event in the subscription's dialect. The returned slice is reused
// by the next call.
func (sub *Subscription) encode(it Item) ([]byte, bool) {
	if sub.dialect == Chunks {
		return sub.encodeChunk(it)
	}
	b := sub.scratch[:0]
	switch d := it.Event.Data.(type) {
	case runtime.TextDelta:
		if sub.dialect == Delta {
			if it.At.Segment < 0 {
				return nil, false // an empty delta changes nothing
			}
			b = wire.NewTokenDelta(d.Text, it.At.Segment, false).AppendJSON(b)
			break
		}
		b = wire.AppendTokenEscaped(b, d.Text, sub.escapedFullText(it.At.Full, d.Text))
	case runtime.Callback:
		if sub.dialect == Delta {
			b = wire.NewTokenDelta(it.At.SegmentText, it.At.Segment, true).AppendJSON(b)
			break
		}
		b = wire.NewToken(it.At.Full, it.At.Full, true).AppendJSON(b)
	case runtime.Output:
		b = appendJSON(b, wire.NewDone(it.At.Full, sub.s.AgentName(), sub.runID, d.MessageID,
			d.History, wire.UsageOf(d.Usage.InputTokens, d.Usage.OutputTokens)))
	case runtime.Error:
		b = appendJSON(b, wire.NewChatError(d.Message, d.Recoverable, false))
	case runtime.Interrupted:
		b = appendJSON(b, wire.NewChatError("The reply was interrupted: "+d.Reason, false, true))
	case runtime.Thinking:
		b = appendJSON(b, wire.NewThinking(d.Text, d.Complete))
	case runtime.Custom:
		b = appendJSON(b, wire.NewCustom(d.CallID, d.Name, d.Data))
	case runtime.StatePatch:
		b = appendJSON(b, wire.NewStatePatch(d.CallID, d.Patches))
	case runtime.ToolStart:
		b = appendJSON(b, wire.NewToolStart(d.CallID, d.Name, d.Arguments))
	case runtime.ToolEnd:
		b = appendJSON(b, wire.NewToolEnd(d.CallID, d.Name, d.Result, d.Error))
	case runtime.ToolStatus:
		b = appendJSON(b, wire.NewToolStatus(d.CallID, d.Name, d.Status, d.TerminalRunID))
	case runtime.RunPaused:
		b = appendJSON(b, wire.NewRunPaused(d.Reason, d.PendingToolName, d.PendingToolCallID, d.ApprovalID, d.Approval))
	case runtime.RunResumed:
		b = appendJSON(b, wire.NewRunResumed(d.ApprovalID, d.Decision))
	case runtime.StreamResync:
		b = appendJSON(b, wire.NewStreamResync(d.Reason, d.FromSequence, d.MessageCount))
	default:
		return nil, false
	}
	sub.scratch = b
	return b, true
}

// escapedFullText returns the escaped fullText after a text delta, extending the cached
// escape by the new suffix when it can.
func (sub *Subscription) escapedFullText(full, delta string) []byte {
	if sub.escOK && len(full) >= sub.rawLen && utf8.ValidString(delta) {
		sub.escFull = jsonstr.AppendBody(sub.escFull, full[sub.rawLen:])
	} else {
		sub.escFull = jsonstr.AppendBody(sub.escFull[:0], full)
	}
	sub.rawLen, sub.escOK = len(full), true
	return sub.escFull
}

// Buffered reports whether Next can return a frame without waiting, so a writer can
// hold its flush until the burst is out.
func (sub *Subscription) Buffered() bool { return len(sub.queue) > 0 || len(sub.pending) > 0 }
