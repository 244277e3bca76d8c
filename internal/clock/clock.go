// Package clock lets code that waits for wall-clock times (reminders, the autonomy
// loop) be driven by a fake clock in tests, so no test sleeps until a time comes.
package clock

import (
	"sort"
	"sync"
	"time"
)

// Clock tells the time and makes timers.
type Clock interface {
	Now() time.Time
	NewTimer(d time.Duration) Timer
}

// Timer fires once on C, like time.Timer.
type Timer interface {
	C() <-chan time.Time
	Stop() bool
}

// System is the real clock.
type System struct{}

// Now is time.Now.
func (System) Now() time.Time { return time.Now() }

// NewTimer is time.NewTimer.
func (System) NewTimer(d time.Duration) Timer { return sysTimer{time.NewTimer(d)} }

type sysTimer struct{ t *time.Timer }

func (s sysTimer) C() <-chan time.Time { return s.t.C }
func (s sysTimer) Stop() bool          { return s.t.Stop() }

// Fake is a clock that only moves when told to. It is safe for concurrent use.
type Fake struct {
	mu      sync.Mutex
	now     time.Time
	timers  []*fakeTimer
	changed chan struct{} // closed and replaced whenever the set of timers changes
}

// NewFake returns a fake clock showing t.
func NewFake(t time.Time) *Fake { return &Fake{now: t, changed: make(chan struct{})} }

// Now is the fake time.
func (f *Fake) Now() time.Time {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.now
}

// NewTimer makes a timer that fires when the clock is advanced to now+d; at once
// when d <= 0.
func (f *Fake) NewTimer(d time.Duration) Timer {
	f.mu.Lock()
	defer f.mu.Unlock()
	t := &fakeTimer{f: f, at: f.now.Add(d), c: make(chan time.Time, 1)}
	if d <= 0 {
		t.c <- f.now
		return t
	}
	f.timers = append(f.timers, t)
	f.notifyLocked()
	return t
}

// Advance moves the clock forward by d and fires the timers that came due, oldest
// deadline first.
func (f *Fake) Advance(d time.Duration) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.now = f.now.Add(d)
	sort.SliceStable(f.timers, func(i, j int) bool { return f.timers[i].at.Before(f.timers[j].at) })
	kept := f.timers[:0]
	for _, t := range f.timers {
		if t.at.After(f.now) {
			kept = append(kept, t)
			continue
		}
		t.c <- f.now // buffered, and each timer fires once
	}
	f.timers = kept
	f.notifyLocked()
}

// Waiters is how many timers are waiting to fire.
func (f *Fake) Waiters() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.timers)
}

// BlockUntil waits until n timers are waiting to fire (so the code under test has
// settled and armed its next timer), or the deadline passes; it reports whether
// that happened.
func (f *Fake) BlockUntil(n int, deadline time.Duration) bool {
	give := time.After(deadline)
	for {
		f.mu.Lock()
		ok, changed := len(f.timers) == n, f.changed
		f.mu.Unlock()
		if ok {
			return true
		}
		select {
		case <-changed:
		case <-give:
			return false
		}
	}
}

func (f *Fake) notifyLocked() {
	close(f.changed)
	f.changed = make(chan struct{})
}

type fakeTimer struct {
	f  *Fake
	at time.Time
	c  chan time.Time
}

func (t *fakeTimer) C() <-chan time.Time { return t.c }

func (t *fakeTimer) Stop() bool {
	t.f.mu.Lock()
	defer t.f.mu.Unlock()
	for i, other := range t.f.timers {
		if other == t {
			t.f.timers = append(t.f.timers[:i], t.f.timers[i+1:]...)
			t.f.notifyLocked()
			return true
		}
	}
	return false
}
