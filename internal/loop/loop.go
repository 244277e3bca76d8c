// Package loop is the shape of Wisp's background loops (the reminders', the tasks',
// the autonomy loop's): one goroutine that others wake when there is something new
// to look at, and stop, waiting until it returned.
package loop

// Loop is one background goroutine. Its body selects on Woken and Stopping and
// returns once Stopping is closed.
type Loop struct {
	wake    chan struct{}
	stop    chan struct{}
	done    chan struct{}
	started bool
}

// New is a loop not started yet.
func New() *Loop {
	return &Loop{wake: make(chan struct{}, 1), stop: make(chan struct{}), done: make(chan struct{})}
}

// Start runs body in the loop's goroutine. Call it once.
func (l *Loop) Start(body func()) {
	l.started = true
	go func() {
		defer close(l.done)
		body()
	}()
}

// Stop closes Stopping and waits for the body to return; a loop never started
// returns at once. Call it once.
func (l *Loop) Stop() {
	if !l.started {
		return
	}
	close(l.stop)
	<-l.done
}

// Wake makes the body look again. It never blocks: wakes before the body looks
// count as one.
func (l *Loop) Wake() {
	select {
	case l.wake <- struct{}{}:
	default: // a wake is already pending
	}
}

// Woken receives once for every wake the body has not seen yet.
func (l *Loop) Woken() <-chan struct{} { return l.wake }

// Stopping is closed when the loop is told to stop.
func (l *Loop) Stopping() <-chan struct{} { return l.stop }
