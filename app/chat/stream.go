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

// Subscription reads one run's frames, from a live run or from the log on disk.
type Subscription struct {
	s       *Service
	runID   string
	src     source
	after   int64
	i       int
	queue   []Item
	done    bool
	scratch []byte
	// escFull is the JSON-escaped fullText (no quotes) of rawLen bytes of reply text.
	// Model text only ever extends fullText, so a token frame escapes only its delta
	// instead of the whole reply again.
	escFull []byte
	rawLen  int
	escOK   bool
}

// Subscribe follows a run from the event after seq `after` (0: from the start).
// Every item carries the reply after it, so fullText is right from the first frame.
func (s *Service) Subscribe(ctx context.Context, runID string, after int64) (*Subscription, error) {
	s.mu.Lock()
	run := s.byID[runID]
	s.mu.Unlock()
	sub := &Subscription{s: s, runID: runID, after: after}
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

// Next returns the next frame, or io.EOF after the final one.
func (sub *Subscription) Next(ctx context.Context) (Frame, error) {
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
		data, ok := sub.encode(it)
		if !ok {
			continue
		}
		final := it.Final()
		sub.done = final
		return Frame{Seq: it.Seq, Data: data, Final: final}, nil
	}
}

// encode renders an event in the dashboard SSE dialect. The returned slice is reused
// by the next call.
func (sub *Subscription) encode(it Item) ([]byte, bool) {
	b := sub.scratch[:0]
	switch d := it.Event.Data.(type) {
	case runtime.TextDelta:
		b = wire.AppendTokenEscaped(b, d.Text, sub.escapedFullText(it.Full, d.Text))
	case runtime.Callback:
		b = wire.NewToken(it.Full, it.Full, true).AppendJSON(b)
	case runtime.Output:
		b = appendJSON(b, wire.NewDone(it.Full, sub.s.AgentName(), sub.runID, d.MessageID,
			d.History, wire.Usage(d.Usage)))
	case runtime.Error:
		b = appendJSON(b, wire.NewChatError(d.Message, d.Recoverable, false))
	case runtime.Interrupted:
		b = appendJSON(b, wire.NewChatError("The reply was interrupted: "+d.Reason, false, true))
	case runtime.Thinking:
		b = appendJSON(b, wire.NewThinking(d.Text))
	case runtime.ToolStart:
		b = appendJSON(b, wire.NewToolStart(d.CallID, d.Name, d.Arguments))
	case runtime.ToolEnd:
		b = appendJSON(b, wire.NewToolEnd(d.CallID, d.Name, d.Result, d.Error))
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
func (sub *Subscription) Buffered() bool { return len(sub.queue) > 0 }
