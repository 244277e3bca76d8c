package app

import (
	"context"
	"net/http"
	"runtime"
	"testing"
	"time"

	"github.com/wispapp/wisp/app/chat"
)

// liveHeap is the heap still in use after a full collection.
func liveHeap() uint64 {
	runtime.GC()
	runtime.GC() // the second sweeps what the first found
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// settledGoroutines is the goroutine count once it is at most want, or after ten
// seconds: what may still be running after a run is done is the services'
// periodic work (the /ws status tick, the journal's flush) and a closed
// connection's readers, which return on their own. want 0 waits only for a
// moment's quiet.
func settledGoroutines(want int) int {
	if want == 0 {
		want = runtime.NumGoroutine()
		for range 100 { // let closed connections' goroutines return
			runtime.Gosched()
			time.Sleep(time.Millisecond)
			want = min(want, runtime.NumGoroutine())
		}
		return want
	}
	for deadline := time.Now().Add(10 * time.Second); runtime.NumGoroutine() > want && time.Now().Before(deadline); {
		runtime.Gosched()
		time.Sleep(time.Millisecond)
	}
	return runtime.NumGoroutine()
}

// Thousands of turns against the fake model leave the live heap flat and give back
// every goroutine they started: nothing a finished run owned stays reachable.
func TestTurnsDoNotLeak(t *testing.T) {
	if testing.Short() {
		t.Skip("2,000 turns: run without -short")
	}
	c := startChat(t, t.TempDir())
	conv := c.newConversation()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	turn := func(i int) {
		run, err := c.core.chat.Send(ctx, conv, chat.SendInput{Text: "hello"})
		if err != nil {
			t.Fatalf("turn %d: %v", i, err)
		}
		out, err := run.Wait(ctx)
		if err != nil || out.Status != chat.StatusEnded {
			t.Fatalf("turn %d: %+v, %v", i, out, err)
		}
		select { // the run's goroutine compacts its log after the end, then is done
		case <-run.Done():
		case <-ctx.Done():
			t.Fatalf("turn %d: the run goroutine did not finish", i)
		}
	}
	const warm, turns = 600, 2000
	for i := range warm {
		turn(i) // connections, caches, pools and the /ws replay ring (1,500 envelopes, a few a turn) reach their size
	}
	// Idle keep-alive connections to the fake model are the transport's pool, not
	// the runs': the pool may hold one more after a turn met a busy connection.
	// Close them on both sides of the count so only what a turn owns is counted.
	idle := http.DefaultTransport.(*http.Transport)
	idle.CloseIdleConnections()
	goroutines := settledGoroutines(0)
	c.fake.ForgetRequests() // the fake model keeps every request; Wisp must not
	before := liveHeap()
	for i := range turns {
		turn(warm + i)
	}
	c.fake.ForgetRequests()
	after := liveHeap()
	// A leak of a few hundred bytes a turn (a context kept per run was 450) shows
	// as half a megabyte over these turns; allocator noise is far below that.
	const margin = 256 << 10
	if after > before+margin {
		t.Errorf("live heap grew from %d to %d bytes over %d turns (%.0f bytes a turn)",
			before, after, turns, float64(after-before)/turns)
	}
	idle.CloseIdleConnections()
	if n := settledGoroutines(goroutines); n > goroutines {
		buf := make([]byte, 1<<20)
		t.Errorf("%d goroutines after the turns, %d before:\n%s", n, goroutines, buf[:runtime.Stack(buf, true)])
	}
	t.Logf("live heap %d → %d bytes over %d turns; goroutines %d → %d", before, after, turns, goroutines, runtime.NumGoroutine())
}
