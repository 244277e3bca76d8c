package ws

import (
	"context"
	"log/slog"
	"time"

	"github.com/wispapp/wisp/app/wire"
	"github.com/wispapp/wisp/internal/batch"
)

// Record is a numbered envelope as persisted.
type Record struct {
	ID   int64
	Type string
	TS   int64
	Data []byte
}

// Journal persists envelopes. Save gets batches in id order and keeps only the newest
// keep records; Load returns the newest n, oldest first.
type Journal interface {
	Save(ctx context.Context, batch []Record, keep int) error
	Load(ctx context.Context, n int) ([]Record, error)
}

// journalWriter batches envelopes to the journal on one goroutine, so a publish
// never waits for the disk.
type journalWriter struct {
	in   chan Record
	done chan struct{}
	log  *slog.Logger
}

const (
	journalQueue = 4096
	journalBatch = 256 // envelopes one Save takes at most
)

func startJournal(j Journal, keep int, log *slog.Logger) *journalWriter {
	w := &journalWriter{in: make(chan Record, journalQueue), done: make(chan struct{}), log: log}
	go w.run(j, keep)
	return w
}

// add queues a record; if the writer is that far behind, the record is kept in memory
// only (and replay still has it) rather than blocking the producer.
func (w *journalWriter) add(r Record) {
	select {
	case w.in <- r:
	default:
		w.log.Warn("ws journal behind, envelope not persisted", "eventId", wire.FormatEventID(r.ID))
	}
}

// close flushes what is queued and stops the writer. add must not be called after.
func (w *journalWriter) close() {
	close(w.in)
	<-w.done
}

func (w *journalWriter) run(j Journal, keep int) {
	defer close(w.done)
	recs := make([]Record, 0, journalBatch)
	for r := range w.in {
		recs = batch.Collect(w.in, r, recs, journalBatch)
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		if err := j.Save(ctx, recs, keep); err != nil {
			w.log.Error("save ws envelopes", "from", recs[0].ID, "count", len(recs), "err", err)
		}
		cancel()
	}
}
