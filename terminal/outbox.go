package terminal

import (
	"sync"
	"time"
)

// The outbox holds a run's events between the goroutines that make them and the one
// that delivers them. A reader that finds it full waits, which pauses the program as a
// slow terminal would.
const (
	outboxBytes  = 4 * batchMax // output bytes queued or being delivered
	outboxEvents = 1024         // events queued (small reads of a slow sink add up)
)

// outbox is a run's events on their way to the sink, in order. Everything that makes
// an event (the output readers, start, a timeout, the end) adds it under the run's
// lock; the run's delivering goroutine takes them out one at a time and calls the sink
// with no lock held. It is guarded by its Run's mutex.
type outbox struct {
	events []Event // queued; events[head:] are still to be delivered
	head   int
	bytes  int // output bytes queued or in the sink
	limit  int // bytes: output waits while bytes >= limit
	// changed is broadcast whenever the outbox changes (an event added or taken, room
	// made), on the run's mutex: the deliverer waits on it for events, a reader for
	// room.
	changed sync.Cond
}

func (o *outbox) push(e Event) {
	o.events = append(o.events, e)
	o.bytes += outputBytes(e)
	o.changed.Broadcast()
}

func (o *outbox) empty() bool { return o.head == len(o.events) }

// full reports whether output must wait for the deliverer.
func (o *outbox) full() bool {
	return o.bytes >= o.limit || o.queued() >= outboxEvents
}

func (o *outbox) queued() int { return len(o.events) - o.head }

// pop takes the oldest event. Its bytes stay counted until done is called.
func (o *outbox) pop() Event {
	roomMade := o.queued() == outboxEvents // an event's worth of room, if that was the limit
	e := o.events[o.head]
	o.events[o.head] = Event{} // let its data go
	o.head++
	if o.empty() {
		o.events, o.head = o.events[:0], 0
	}
	if roomMade {
		o.changed.Broadcast()
	}
	return e
}

// done makes room for the output of an event the sink has taken.
func (o *outbox) done(e Event) {
	if n := outputBytes(e); n > 0 {
		o.bytes -= n
		o.changed.Broadcast()
	}
}

func outputBytes(e Event) int {
	if e.Kind == KindStdout || e.Kind == KindStderr {
		return len(e.Data)
	}
	return 0
}

// final reports whether e is the last event of a run.
func (e Event) final() bool { return e.Kind == KindExit || e.Kind == KindError }

// queueOutput adds a batch of output, once there is room for it.
func (r *Run) queueOutput(kind Kind, data string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for r.out.full() {
		r.out.changed.Wait()
	}
	r.emitLocked(Event{Kind: kind, Data: data})
}

// deliver is the run's delivering goroutine: it hands the events to the sink in order,
// without holding the run's lock, waits for lagging viewers before output (flow
// control), and ends with the last event, after which the run is done.
func (r *Run) deliver() {
	sink := r.m.opts.Sink
	flow := r.flow()
	r.mu.Lock()
	for {
		for r.out.empty() {
			r.out.changed.Wait()
		}
		e := r.out.pop()
		r.mu.Unlock()
		if outputBytes(e) > 0 {
			flow.wait()
		}
		sink(e)
		if e.final() {
			close(r.done)
			r.m.wg.Done()
			return
		}
		r.mu.Lock()
		r.out.done(e)
	}
}

// flow is the flow control of one run's output: before output is delivered, the run's
// viewers must have taken most of what was sent (Options.Ready).
type flow struct {
	ready func() (bool, <-chan struct{}) // nil: always ready
	stall time.Duration
	stuck bool // the viewers stayed behind for a whole stall: stop waiting for them
}

func (r *Run) flow() *flow {
	f := &flow{stall: r.m.opts.FlowStall}
	if ready := r.m.opts.Ready; ready != nil {
		owner := r.spec.Owner
		f.ready = func() (bool, <-chan struct{}) { return ready(owner) }
	}
	return f
}

// wait returns once the viewers have caught up, or after the stall. While it waits,
// the run's output fills the outbox, which then stops the readers and pauses the
// program, as a terminal's XOFF would. Viewers that stay behind for a whole stall are
// not waited for again until they have caught up once (the hub drops them, or they
// catch up).
func (f *flow) wait() {
	if f.ready == nil {
		return
	}
	ok, changed := f.ready()
	if ok {
		f.stuck = false
		return
	}
	if f.stuck {
		return
	}
	stall := time.NewTimer(f.stall)
	defer stall.Stop()
	for !ok {
		select {
		case <-changed: // nil: only the stall ends the wait
		case <-stall.C:
			f.stuck = true
			return
		}
		ok, changed = f.ready()
	}
}
