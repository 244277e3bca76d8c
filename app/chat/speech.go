package chat

import (
	"log/slog"

	"github.com/wispapp/wisp/runtime"
	"github.com/wispapp/wisp/runtime/speech"
)

// maxClauses bounds the clauses one run speaks: past it, the rest of a hostile or
// endless reply is not cut at all (and the log says so once).
const maxClauses = 2000

// A run that speaks (Options.Speak at its start) cuts the model's text into clauses
// as it streams (runtime/speech) and logs each as a speech event after the text
// delta that completed it, so a client has the text when it gets the clause. Only
// the model's text segments are spoken, never an action's callbacks. The last clause
// carries Final, so each but the first is held back until more speakable text
// follows (a token later, usually), an action starts (it may take long: the clause
// goes at once) or the run ends (then it goes with Final). The run's first clause is
// never held: speech starts as soon as it can. A reply that ends without a clause
// sends none; one of a single clause, or whose last clause went before an action and
// no text followed, has none with Final: the run's end frame ends its speech too.
type speaker struct {
	log   *slog.Logger
	run   string
	emit  func(ev runtime.Event, full string)
	seg   int // the segment split, -1 before the first
	split *speech.Splitter
	held  *runtime.Speech
	next  int // the next clause's index
	full  string
	// capped: maxClauses were sent; the rest is not split.
	capped bool
}

// newSpeaker starts a run's clauses at index first (a resumed run goes on after the
// clauses its log has).
func newSpeaker(log *slog.Logger, run string, first int, emit func(ev runtime.Event, full string)) *speaker {
	return &speaker{log: log, run: run, emit: emit, seg: -1, next: first}
}

// observe follows an event the run just logged.
func (k *speaker) observe(ev runtime.Event, at runtime.Fold) {
	k.full = at.Full
	switch d := ev.Data.(type) {
	case runtime.TextDelta:
		if at.Segment < 0 || k.capped {
			return
		}
		if at.Segment != k.seg {
			k.endSegment()
			k.seg, k.split = at.Segment, &speech.Splitter{Early: k.next == 0 && k.held == nil}
		}
		k.add(k.split.Feed(d.Text))
		if k.split.Pending() {
			k.release(false)
		}
	case runtime.ToolStart:
		k.endSegment()
		k.release(false)
	}
}

// end speaks the rest of the reply, its last clause with Final.
func (k *speaker) end() {
	k.endSegment()
	k.release(true)
}

func (k *speaker) endSegment() {
	if k.split != nil {
		if !k.capped {
			k.add(k.split.Flush())
		}
		k.split = nil
	}
}

// add sends the clause held and holds the last of cs.
func (k *speaker) add(cs []speech.Clause) {
	for _, c := range cs {
		if k.next >= maxClauses {
			if !k.capped {
				k.capped = true
				k.log.Warn("the reply has too many clauses to speak: the rest is not spoken", "run", k.run, "clauses", maxClauses)
			}
			return
		}
		k.release(false)
		k.held = &runtime.Speech{Index: k.next, Text: c.Text, Segment: k.seg, Start: c.Start, End: c.End}
		k.next++
		if k.held.Index == 0 {
			k.release(false) // the first goes at once: speech starts a token sooner
		}
	}
}

// release sends the clause held, if any.
func (k *speaker) release(final bool) {
	if k.held == nil {
		return
	}
	sp := *k.held
	k.held = nil
	sp.Final = final
	k.emit(runtime.Event{Type: runtime.EventSpeech, Data: sp}, k.full)
}

// spokenIn counts the clauses a run's log already has.
func spokenIn(events []runtime.Event) int {
	n := 0
	for _, ev := range events {
		if ev.Type == runtime.EventSpeech {
			n++
		}
	}
	return n
}
