package chat

import (
	"context"
	"errors"
	"io"
	"log/slog"

	"github.com/wispapp/wisp/app/dialect"
	"github.com/wispapp/wisp/runtime"
)

// Frame is one SSE frame: the run event's sequence number and its encoding in the
// subscription's dialect.
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
	log     *slog.Logger
	runID   string
	agent   string
	src     source
	enc     dialect.Encoder
	after   int64
	i       int
	queue   []Item
	done    bool
	started bool
	// pending holds frames ready before the next item: a delta resume's backlog.
	pending []Frame
	scratch []byte
}

// Subscribe follows a run from the event after seq `after` (0: from the start),
// encoded by enc (a fresh encoder of the stream's dialect). Every item carries the
// reply after it, so fullText is right from the first frame.
func (s *Service) Subscribe(ctx context.Context, runID string, after int64, enc dialect.Encoder) (*Subscription, error) {
	s.mu.Lock()
	run := s.byID[runID]
	s.mu.Unlock()
	sub := &Subscription{log: s.log, runID: runID, agent: s.AgentName(), after: after, enc: enc}
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
		if r, ok := sub.enc.(dialect.Resumer); ok && sub.after > 0 {
			sub.resumeWithReply(r)
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
		if it.Seq <= sub.after {
			if o, ok := sub.enc.(dialect.Observer); ok {
				o.Observe(sub.event(it))
			}
			continue
		}
		if len(it.Cuts) > 0 {
			whole := it
			it = it.trimmed(sub.after)
			sub.observeCut(whole, it)
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

// encode renders an item in the subscription's dialect; ok is false when the dialect
// sends nothing for it. The returned slice is reused by the next call.
func (sub *Subscription) encode(it Item) ([]byte, bool) {
	b, err := sub.enc.Encode(sub.scratch[:0], sub.event(it))
	if err != nil {
		if !errors.Is(err, dialect.ErrSkip) {
			sub.log.Error("encode run event", "run", sub.runID, "seq", it.Seq, "err", err)
		}
		return nil, false
	}
	sub.scratch = b
	return b, true
}

// observeCut shows an Observer the part of a merged delta before the client's point,
// which trimmed cut off.
func (sub *Subscription) observeCut(whole, trimmed Item) {
	o, ok := sub.enc.(dialect.Observer)
	if !ok {
		return
	}
	head := whole
	switch d := whole.Event.Data.(type) {
	case runtime.TextDelta:
		d.Text = d.Text[:len(d.Text)-len(trimmed.Event.Data.(runtime.TextDelta).Text)]
		head.Event.Data = d
	case runtime.Thinking:
		d.Text = d.Text[:len(d.Text)-len(trimmed.Event.Data.(runtime.Thinking).Text)]
		head.Event.Data = d
	default:
		return
	}
	o.Observe(sub.event(head))
}

func (sub *Subscription) event(it Item) dialect.Event {
	return dialect.Event{Seq: it.Seq, Time: it.Time, Event: it.Event, At: it.At, Run: sub.runID, Agent: sub.agent}
}

// Buffered reports whether Next can return a frame without waiting, so a writer can
// hold its flush until the burst is out.
func (sub *Subscription) Buffered() bool { return len(sub.queue) > 0 || len(sub.pending) > 0 }
