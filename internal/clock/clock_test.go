package clock

import (
	"testing"
	"time"
)

func TestFakeFiresOnlyWhenAdvancedPastTheDeadline(t *testing.T) {
	t0 := time.Date(2026, 11, 21, 9, 0, 0, 0, time.UTC)
	f := NewFake(t0)
	timer := f.NewTimer(time.Minute)
	f.Advance(59 * time.Second)
	select {
	case <-timer.C():
		t.Fatal("fired before its time")
	default:
	}
	f.Advance(time.Second)
	select {
	case at := <-timer.C():
		if !at.Equal(t0.Add(time.Minute)) {
			t.Fatalf("fired at %v", at)
		}
	default:
		t.Fatal("did not fire at its time")
	}
	if f.Waiters() != 0 {
		t.Fatalf("%d timers still waiting", f.Waiters())
	}
}

func TestFakeStopAndImmediateTimers(t *testing.T) {
	f := NewFake(time.Unix(0, 0))
	stopped := f.NewTimer(time.Second)
	if !f.BlockUntil(1, time.Second) {
		t.Fatal("BlockUntil did not see the timer")
	}
	if !stopped.Stop() || stopped.Stop() {
		t.Fatal("Stop should report true once")
	}
	f.Advance(time.Hour)
	select {
	case <-stopped.C():
		t.Fatal("a stopped timer fired")
	default:
	}
	select {
	case <-f.NewTimer(0).C():
	default:
		t.Fatal("a timer for now did not fire at once")
	}
	if f.BlockUntil(1, 10*time.Millisecond) {
		t.Fatal("BlockUntil saw a timer that is not there")
	}
}

func TestSystemClock(t *testing.T) {
	var c Clock = System{}
	if d := time.Since(c.Now()); d < 0 || d > time.Second {
		t.Fatalf("Now is %v off", d)
	}
	timer := c.NewTimer(time.Millisecond)
	select {
	case <-timer.C():
	case <-time.After(5 * time.Second):
		t.Fatal("the system timer did not fire")
	}
}
