package ws

import "sync/atomic"

// progress wakes producers that wait for their clients to catch up (Backlog).
type progress struct {
	next atomic.Pointer[chan struct{}] // closed at the next progress; nil while nobody waits
}

// Progress returns a channel closed the next time a client's queue shrinks: a frame
// was written to it, or it went away. A producer waiting for Backlog to fall takes the
// channel, checks Backlog, and waits for the channel only if it must: no progress in
// between is missed.
func (h *Hub) Progress() <-chan struct{} {
	for {
		if p := h.progress.next.Load(); p != nil {
			return *p
		}
		ch := make(chan struct{})
		if h.progress.next.CompareAndSwap(nil, &ch) {
			return ch
		}
	}
}

// progressed wakes whoever waits on Progress. It is called for every frame written,
// so it costs one atomic load while nobody waits.
func (h *Hub) progressed() {
	if h.progress.next.Load() == nil {
		return
	}
	if p := h.progress.next.Swap(nil); p != nil {
		close(*p)
	}
}
