// Package dialect owns the chat dialects a run's events are streamed in, one encoder
// per dialect side by side: seed 000's (Eliza), the UI's delta dialect, seed 001's
// chunks and seed 003's named events (streamed, or gathered into one answer). Each
// encoder takes typed runtime events and says, for every event type, either what it
// sends or that it sends nothing (ErrSkip).
//
// It knows the runtime's events and the frame catalog (app/wire); it must not import
// HTTP, SQLite or the chat service (app/chat feeds it, app/api picks the encoder).
package dialect

import (
	"errors"
	"fmt"
	"time"

	"github.com/wispapp/wisp/runtime"
)

// Event is one run event as an encoder sees it: the event, its number and time, the
// visible reply right after it, and the run it belongs to.
type Event struct {
	Seq   int64
	Time  time.Time
	Event runtime.Event
	At    runtime.Fold
	// Run is the run's id and Agent the agent's name.
	Run, Agent string
}

// Encoder renders events in one dialect. Encode appends ev's frame to b and returns
// it, or ErrSkip when the dialect sends nothing for ev. An encoder may keep state
// between events (it belongs to one stream).
type Encoder interface {
	Encode(b []byte, ev Event) ([]byte, error)
}

// Observer is an encoder that must see the events before a resumed stream's starting
// point (a thinking block that began before it, say), which it does not encode.
type Observer interface {
	Observe(ev Event)
}

// Resumer is an encoder that, when a stream resumes, sends the reply so far as one
// frame instead of the text events it reflects (the delta dialect).
type Resumer interface {
	Reply(b []byte, segments []string, full string) []byte
}

// ErrSkip says a dialect sends nothing for an event.
var ErrSkip = errors.New("dialect: no frame for this event")

// unknown is the error of an event type an encoder does not know: a new runtime event
// type that was not given a case (the table test catches it).
func unknown(ev Event) error {
	return fmt.Errorf("dialect: unknown run event type %q (%T)", ev.Event.Type, ev.Event.Data)
}
