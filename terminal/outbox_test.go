package terminal

import (
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// A slow sink does not stall the reading: while the sink holds on to an event, the
// run keeps reading until its outbox is full, and only then does the program pause;
// the run's lock is free all the while. Once the sink goes on, every byte arrives, in
// order, numbered without a gap, and the exit comes last.
func TestSlowSinkDoesNotStallTheReader(t *testing.T) {
	rec := &recorder{}
	held, release := make(chan struct{}), make(chan struct{})
	var hold, let sync.Once
	sink := func(e Event) {
		if e.Kind == KindStdout {
			hold.Do(func() {
				close(held)
				<-release
			})
		}
		rec.sink(e)
	}
	m := NewManager(Options{Sink: sink, Dir: t.TempDir(), Logger: quiet})
	t.Cleanup(m.Stop)
	letGo := func() { let.Do(func() { close(release) }) }
	t.Cleanup(letGo) // before Stop, should the test fail while the sink holds

	const lines = 200000 // about 1.3 MB: far more than the outbox and the terminal hold
	cmd := "seq 1 " + strconv.Itoa(lines) + "; echo end >&2"
	r := start(t, m, Spec{Command: cmd, Capture: true})
	select {
	case <-held:
	case <-time.After(waitLimit):
		t.Fatal("no output reached the sink")
	}
	waitRun(t, r, "the reader to fill the outbox", r.out.full)
	r.mu.Lock()
	queued := r.out.bytes
	r.mu.Unlock()
	// At most one batch over the limit: the one in the sink, or the last one queued.
	if queued < outboxBytes || queued > outboxBytes+batchMax {
		t.Fatalf("%d bytes queued, want %d to %d", queued, outboxBytes, outboxBytes+batchMax)
	}
	if snap := r.Snapshot(); snap.Status != StatusRunning || snap.LastSeq < 3 {
		t.Fatalf("while the sink holds: status %q, last event %d", snap.Status, snap.LastSeq)
	}
	letGo()
	wait(t, rec, r)

	var want strings.Builder
	for i := 1; i <= lines; i++ {
		want.WriteString(strconv.Itoa(i) + "\n")
	}
	if got := rec.text(r.ID(), KindStdout); got != want.String() {
		t.Fatalf("stdout of %d bytes, want the %d of seq 1 %d", len(got), want.Len(), lines)
	}
	if errOut := rec.text(r.ID(), KindStderr); errOut != "end\n" {
		t.Fatalf("stderr %q", errOut)
	}
	checkSequence(t, rec.of(r.ID()), cmd)
	if res := r.Result(); res.ExitCode != 0 || !res.OK {
		t.Fatalf("result %+v", res)
	}
}
