package chat

import (
	"context"
	"encoding/json"
	"log/slog"
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

func (w *logWriter) add(p pending) { w.in <- p }

// close flushes what is queued and stops the writer. Nothing may be added after.
func (w *logWriter) close() {
	close(w.in)
	<-w.done
}

func (w *logWriter) loop() {
	defer close(w.done)
	queued := make([]pending, 0, maxBatch)
	rows := make([]store.RunEvent, 0, maxBatch)
	for first := range w.in {
		queued = batch.Collect(w.in, first, queued, maxBatch)
		rows = rows[:0]
		for _, p := range queued {
			rows = append(rows, store.RunEvent{RunID: p.run.ID, Seq: p.item.Seq, Type: string(p.item.Event.Type), Data: p.data, Time: p.item.Time})
		}
		w.write(rows)
		for _, p := range queued {
			if p.end != nil {
				if err := p.end(); err != nil {
					w.log.Error("end run", "run", p.run.ID, "err", err)
				}
			}
			p.run.publish(p.item)
			if p.published != nil {
				close(p.published)
			}
		}
	}
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

// encodeEvent is the JSON an event is logged with.
func encodeEvent(ev runtime.Event) json.RawMessage {
	data, err := json.Marshal(ev.Data)
	if err != nil {
		return json.RawMessage(`{}`)
	}
	return data
}
