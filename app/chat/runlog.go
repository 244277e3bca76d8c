package chat

import (
	"context"
	"encoding/json"
	"log/slog"
	goruntime "runtime"
	"strings"
	"time"

	"github.com/wispapp/wisp/app/store"
	"github.com/wispapp/wisp/internal/batch"
	"github.com/wispapp/wisp/runtime"
)

// maxBatch bounds one group commit.
const maxBatch = 512

// pending is a run event on its way to disk.
type pending struct {
	run  *Run
	item Item
	// data is the event as logged; the writer encodes it when it is nil.
	data json.RawMessage
	// end, when set, is the final event's bookkeeping (run status and reply), done
	// after the event is on disk and before anyone sees it.
	end func() error
	// published is closed once the event reached the run's subscribers.
	published chan struct{}
}

// logWriter persists run events in group commits: one goroutine takes whatever has
// queued up (at most maxBatch events), writes it in one transaction and only then
// hands the events to their runs. A producer blocks only when the queue is full.
type logWriter struct {
	store eventLog
	log   *slog.Logger
	in    chan pending
	done  chan struct{}
}

// eventLog is where the writer commits run events (*store.Store).
type eventLog interface {
	AppendRunEvents(ctx context.Context, events []store.RunEvent) error
}

func newLogWriter(st eventLog, log *slog.Logger) *logWriter {
	w := &logWriter{store: st, log: log, in: make(chan pending, 4096), done: make(chan struct{})}
	go w.loop()
	return w
}

func (w *logWriter) add(p pending) {
	idle := len(w.in) == 0
	w.in <- p
	if idle && p.item.Seq == 1 {
		// A run's first event (what its first frame waits for) and the writer was
		// waiting: let it commit now, on this P, rather than when the producer next
		// blocks, which may be a cgo call away. Later events queue up meanwhile and
		// go to disk together.
		goruntime.Gosched()
	}
}

// close flushes what is queued and stops the writer. Nothing may be added after.
func (w *logWriter) close() {
	close(w.in)
	<-w.done
}

func (w *logWriter) loop() {
	defer close(w.done)
	queued := make([]pending, 0, maxBatch)
	rows := make([]store.RunEvent, 0, maxBatch)
	items := make([]Item, 0, maxBatch)
	for first := range w.in {
		queued = batch.Collect(w.in, first, queued, maxBatch)
		rows = appendRows(rows[:0], queued)
		w.write(rows)
		items = w.publish(queued, items)
		// Let the readers just woken send their frames before the next commit
		// holds this P in cgo.
		goruntime.Gosched()
	}
}

// publish hands a committed batch to its runs: each stretch of one run's events at
// once (one wake-up of its readers, not one per token). A final event's bookkeeping
// runs before it is seen, and anyone waiting for an event is told after. items is
// scratch space, returned for reuse.
func (w *logWriter) publish(queued []pending, items []Item) []Item {
	for i := 0; i < len(queued); {
		p := queued[i]
		if p.end != nil {
			if err := p.end(); err != nil {
				w.log.Error("end run", "run", p.run.ID, "err", err)
			}
		}
		j := i + 1
		for j < len(queued) && queued[j].run == p.run && queued[j].end == nil {
			j++
		}
		items = items[:0]
		for _, q := range queued[i:j] {
			items = append(items, q.item)
		}
		p.run.publish(items...)
		for _, q := range queued[i:j] {
			if q.published != nil {
				close(q.published)
			}
		}
		i = j
	}
	clear(items[:cap(items)]) // drop the references until the next batch
	return items[:0]
}

// write commits one batch, retrying a failed commit a few times. If the disk keeps
// failing the events are still shown live: losing the display would not save them.
func (w *logWriter) write(rows []store.RunEvent) {
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		if err = w.store.AppendRunEvents(context.Background(), rows); err == nil {
			return
		}
		time.Sleep(time.Duration(attempt+1) * 20 * time.Millisecond)
	}
	w.log.Error("save run events", "events", len(rows), "run", rows[0].RunID, "err", err)
}

// appendRows appends the rows that log a batch of events. Each stretch of a run's
// consecutive text (or thinking) deltas becomes one row, numbered like its last
// delta, in the form compaction gives it ({text, cuts}: see compact.go), so that a
// long reply's hundreds of deltas per commit cost one row, not hundreds, and the
// log to compact at the end is short. Every delta is still on disk, with its
// place, before anyone sees it: a client resuming from any number gets exactly
// the text after it.
func appendRows(rows []store.RunEvent, batch []pending) []store.RunEvent {
	for i := 0; i < len(batch); {
		p := batch[i]
		j := i + 1
		if text, ok := deltaText(p.item.Event); ok {
			for j < len(batch) && batch[j].run == p.run && batch[j].item.Seq == batch[j-1].item.Seq+1 && batch[j].item.Event.Type == p.item.Event.Type {
				if _, ok := deltaText(batch[j].item.Event); !ok {
					break
				}
				j++
			}
			if j-i > 1 {
				rows = append(rows, mergedRow(batch[i:j], text))
				i = j
				continue
			}
		}
		data := p.data
		if data == nil {
			data = encodeEvent(p.item.Event)
		}
		rows = append(rows, store.RunEvent{RunID: p.run.ID, Seq: p.item.Seq, Type: string(p.item.Event.Type), Data: data, Time: p.item.Time})
		i = j
	}
	return rows
}

// deltaText is the text of an event that may join a stretch: a text delta, or a
// thinking delta that does not close its step's reasoning.
func deltaText(ev runtime.Event) (string, bool) {
	switch d := ev.Data.(type) {
	case runtime.TextDelta:
		return d.Text, true
	case runtime.Thinking:
		return d.Text, !d.Complete
	}
	return "", false
}

// mergedRow is the row of a stretch of two or more deltas; first is the text of
// the first.
func mergedRow(stretch []pending, first string) store.RunEvent {
	m := mergedDelta{Cuts: make([]int, 0, len(stretch))}
	n := 0
	for _, p := range stretch {
		t, _ := deltaText(p.item.Event)
		n += len(t)
	}
	var b strings.Builder
	b.Grow(n)
	for k, p := range stretch {
		t := first
		if k > 0 {
			t, _ = deltaText(p.item.Event)
		}
		b.WriteString(t)
		m.Cuts = append(m.Cuts, len(t))
	}
	m.Text = b.String()
	data, _ := json.Marshal(m)
	last := stretch[len(stretch)-1]
	return store.RunEvent{RunID: last.run.ID, Seq: last.item.Seq, Type: string(last.item.Event.Type), Data: data, Time: last.item.Time}
}

// encodeEvent is the JSON an event is logged with.
func encodeEvent(ev runtime.Event) json.RawMessage {
	data, err := json.Marshal(ev.Data)
	if err != nil {
		return json.RawMessage(`{}`)
	}
	return data
}
