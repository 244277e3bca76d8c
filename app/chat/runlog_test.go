package chat

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/wispapp/wisp/app/store"
	"github.com/wispapp/wisp/runtime"
)

// gatedLog is an event log whose first commit waits for release, and whose commits
// fail while failures is positive.
type gatedLog struct {
	mu       sync.Mutex
	batches  [][]store.RunEvent
	failures int
	entered  chan struct{}
	release  chan struct{}
}

func newGatedLog() *gatedLog {
	return &gatedLog{entered: make(chan struct{}), release: make(chan struct{})}
}

func (l *gatedLog) AppendRunEvents(_ context.Context, evs []store.RunEvent) error {
	l.mu.Lock()
	first := l.batches == nil && l.entered != nil
	if first {
		l.batches = [][]store.RunEvent{}
	}
	l.mu.Unlock()
	if first {
		close(l.entered)
		<-l.release
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.failures > 0 {
		l.failures--
		return errors.New("disk I/O error")
	}
	l.batches = append(l.batches, append([]store.RunEvent(nil), evs...))
	return nil
}

func (l *gatedLog) sizes() []int {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []int
	for _, b := range l.batches {
		out = append(out, len(b))
	}
	return out
}

func pendingText(run *Run, seq int64) pending {
	ev := text("x")
	return pending{run: run, item: Item{Seq: seq, Event: ev, At: runtime.Fold{Full: "x", Segment: 0}}, data: encodeEvent(ev)}
}

// What queues while a commit is on disk goes in the next one, together; a run sees
// its events only once they are committed, and a final event's bookkeeping runs after
// its commit and before anyone sees it.
func TestGroupCommit(t *testing.T) {
	l := newGatedLog()
	w := newLogWriter(l, quiet)
	defer w.close()
	run := newRun("conv", "user-msg", func(error) {})

	w.add(pendingText(run, 1))
	<-l.entered // the first commit is on its way to disk and waits there
	for seq := int64(2); seq <= 101; seq++ {
		w.add(pendingText(run, seq))
	}
	var seenAtEnd int
	final := pending{run: run, item: Item{Seq: 102, Event: runtime.Event{Type: runtime.EventOutput, Data: runtime.Output{}}},
		data: []byte(`{}`), published: make(chan struct{}), end: func() error {
			run.mu.Lock()
			defer run.mu.Unlock()
			seenAtEnd = len(run.items)
			return nil
		}}
	w.add(final)
	run.mu.Lock()
	published := len(run.items)
	run.mu.Unlock()
	if published != 0 {
		t.Fatalf("%d events published before their commit", published)
	}
	close(l.release)
	<-final.published
	// The second commit holds the 100 deltas as one row, numbered like the last.
	if got := l.sizes(); len(got) != 2 || got[0] != 1 || got[1] != 2 {
		t.Fatalf("commits of %v rows, want [1 2]", got)
	}
	if r := l.batches[1][0]; r.Seq != 101 || r.Type != "text_delta" || len(cutsOf(r.Data)) != 100 {
		t.Fatalf("the second commit's first row: %d %s %.80s", r.Seq, r.Type, r.Data)
	}
	if seenAtEnd != 101 {
		t.Fatalf("the final bookkeeping saw %d published events, want the 101 before it", seenAtEnd)
	}
	text, _, ended := run.snapshot()
	if !ended || len(run.items) != 102 || text != "" {
		t.Fatalf("run after the final event: %d items, ended=%v, %q", len(run.items), ended, text)
	}
	for i, it := range run.items {
		if it.Seq != int64(i+1) {
			t.Fatalf("item %d has seq %d: published out of order", i, it.Seq)
		}
	}
}

// A commit that fails is tried again; the events are shown either way.
func TestCommitRetries(t *testing.T) {
	l := &gatedLog{failures: 2}
	w := newLogWriter(l, quiet)
	defer w.close()
	run := newRun("conv", "user-msg", func(error) {})
	p := pendingText(run, 1)
	p.published = make(chan struct{})
	w.add(p)
	<-p.published
	if got := l.sizes(); len(got) != 1 || got[0] != 1 {
		t.Fatalf("commits %v", got)
	}
}

// A commit logs each stretch of one run's consecutive deltas as one row with its
// cut points, and everything else as it is: a delta alone, a run's deltas broken by
// another run's or by a gap in the numbers, the thinking that closes a step.
func TestAppendRowsMergesStretches(t *testing.T) {
	a := newRun("conv", "u1", func(error) {})
	b := newRun("conv", "u2", func(error) {})
	a.ID, b.ID = "a", "b"
	ev := func(run *Run, seq int64, e runtime.Event) pending {
		return pending{run: run, item: Item{Seq: seq, Event: e}}
	}
	closing := runtime.Event{Type: runtime.EventThinking, Data: runtime.Thinking{Complete: true}}
	batch := []pending{
		ev(a, 1, thinking("Hm")), ev(a, 2, thinking("m.")), ev(a, 3, closing),
		ev(a, 4, text("é")), ev(a, 5, text("")), ev(a, 6, text("tö")),
		ev(b, 1, text("other")),
		ev(a, 7, text("x")), ev(a, 9, text("gap")), ev(a, 10, text("y")),
		ev(a, 11, runtime.Event{Type: runtime.EventOutput, Data: runtime.Output{FullText: "étöxgapy"}}),
	}
	var got []string
	for _, r := range appendRows(nil, batch) {
		got = append(got, fmt.Sprintf("%s/%d %s %s", r.RunID, r.Seq, r.Type, r.Data))
	}
	want := []string{
		`a/2 thinking {"text":"Hmm.","cuts":[2,2]}`,
		`a/3 thinking {"text":"","complete":true}`,
		`a/6 text_delta {"text":"étö","cuts":[2,0,3]}`,
		`b/1 text_delta {"text":"other"}`,
		`a/7 text_delta {"text":"x"}`,
		`a/10 text_delta {"text":"gapy","cuts":[3,1]}`,
	}
	if len(got) != len(want)+1 || strings.Join(got[:len(want)], "\n") != strings.Join(want, "\n") {
		t.Fatalf("rows:\n%s\nwant:\n%s\n(then the output)", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
