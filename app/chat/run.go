package chat

import (
	"context"
	"sync"
	"time"

	"github.com/wispapp/wisp/internal/ids"

	"github.com/wispapp/wisp/app/store"
	"github.com/wispapp/wisp/runtime"
	"github.com/wispapp/wisp/runtime/llm"
)

// Run statuses.
const (
	StatusActive      = "active"
	StatusPaused      = "paused"
	StatusEnded       = "ended"
	StatusFailed      = "failed"
	StatusInterrupted = "interrupted"
)

// Item is one event of a run's log.
type Item struct {
	Seq   int64
	Event runtime.Event
	Time  time.Time
	// At is the visible reply right after the event: the agent's one fold of the
	// run's events (runtime.Emit), so readers of the log never fold it again.
	At runtime.Fold
	// Cuts, for a stretch of deltas merged into one event once the run ended, are the
	// lengths of the deltas it replaced: the item stands for the numbers
	// Seq-len(Cuts)+1 .. Seq (see compact.go).
	Cuts []int
}

// Final reports whether the item ends its run.
func (it Item) Final() bool {
	switch it.Event.Type {
	case runtime.EventOutput, runtime.EventInterrupted:
		return true
	case runtime.EventError:
		e, _ := it.Event.Data.(runtime.Error)
		return !e.Recoverable
	}
	return false
}

// Outcome is how a run ended.
type Outcome struct {
	Status    string
	Error     string
	FullText  string
	History   []string
	Usage     llm.Usage
	MessageID string
}

// Run is a live run: the events already on disk, in order, for its subscribers.
type Run struct {
	ID             string
	ConversationID string
	UserMessageID  string
	ReplyMessageID string
	StartedAt      time.Time

	cancel context.CancelCauseFunc
	seq    int64         // last number handed out; only the run goroutine touches it
	over   chan struct{} // closed when the run goroutine has finished everything

	mu      sync.Mutex
	items   []Item
	notify  chan struct{}
	ended   bool
	outcome Outcome
	// paused: the run waits for the user (between run_paused and run_resumed).
	// adopted: it paused before a restart and no goroutine runs it yet (pause.go).
	paused  bool
	adopted bool
	// closed: Wisp closed while the run was paused; its readers stop here and pick
	// it up again after the next start.
	closed bool
	// attachments are the user message's, shown in its display row (set before
	// the run starts; read by the run goroutine only).
	attachments []store.Attachment
}

func newRun(convID, userMsgID string, cancel context.CancelCauseFunc) *Run {
	return &Run{
		ID: ids.New(), ConversationID: convID, UserMessageID: userMsgID, ReplyMessageID: ids.New(),
		StartedAt: time.Now(), cancel: cancel, notify: make(chan struct{}), over: make(chan struct{}),
	}
}

// Done is closed once the run's goroutine has finished: after the end every client
// sees (Wait) comes the log's compaction, then Done.
func (r *Run) Done() <-chan struct{} { return r.over }

// Cancel interrupts the run; its partial reply is kept.
func (r *Run) Cancel(cause error) { r.cancel(cause) }

// publish appends events that are on disk, in order, and wakes the subscribers once.
func (r *Run) publish(items ...Item) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.items = append(r.items, items...)
	for _, it := range items {
		if it.Final() {
			r.ended = true
		}
	}
	close(r.notify)
	r.notify = make(chan struct{})
}

// closeReaders ends the run's readers without an end: Wisp is closing while the run
// waits for the user.
func (r *Run) closeReaders() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.closed = true
	close(r.notify)
	r.notify = make(chan struct{})
}

// snapshot is the reply so far, for a reload during the run, and the number of the
// last event it reflects, read together.
func (r *Run) snapshot() (text string, seq int64, ended bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if n := len(r.items); n > 0 {
		text, seq = r.items[n-1].At.Full, r.items[n-1].Seq
	}
	return text, seq, r.ended
}

// Wait blocks until the run ended (or ctx is done) and returns how.
func (r *Run) Wait(ctx context.Context) (Outcome, error) {
	for {
		r.mu.Lock()
		ended, closed, out, ch := r.ended, r.closed, r.outcome, r.notify
		r.mu.Unlock()
		if ended {
			return out, nil
		}
		if closed {
			return Outcome{Status: StatusPaused}, nil
		}
		select {
		case <-ch:
		case <-ctx.Done():
			return Outcome{}, ctx.Err()
		}
	}
}

// next returns the items from index i on, waiting for some when there are none.
// done is true when the run has ended and every item was returned.
func (r *Run) next(ctx context.Context, i int) (items []Item, done bool, err error) {
	for {
		r.mu.Lock()
		items, ended, ch := r.items[i:], r.ended || r.closed, r.notify
		r.mu.Unlock()
		if len(items) > 0 {
			return items, false, nil
		}
		if ended {
			return nil, true, nil
		}
		select {
		case <-ch:
		case <-ctx.Done():
			return nil, false, ctx.Err()
		}
	}
}
