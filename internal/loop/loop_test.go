package loop

import "testing"

func TestWakesCoalesceAndStopWaits(t *testing.T) {
	l := New()
	seen := make(chan struct{})
	returned := false
	l.Wake()
	l.Wake() // a second wake before the body looked counts as one
	l.Start(func() {
		for {
			select {
			case <-l.Woken():
				seen <- struct{}{}
			case <-l.Stopping():
				returned = true
				return
			}
		}
	})
	<-seen
	select {
	case <-seen:
		t.Fatal("two wakes before the body looked were seen twice")
	default:
	}
	l.Wake()
	<-seen
	l.Stop()
	if !returned {
		t.Fatal("Stop returned before the body did")
	}
}

func TestStopWithoutStart(t *testing.T) {
	New().Stop() // returns at once
}
