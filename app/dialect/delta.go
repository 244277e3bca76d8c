package dialect

import (
	"github.com/wispapp/wisp/app/wire"
	"github.com/wispapp/wisp/runtime"
)

// Delta is the UI's dialect: only what changed is sent, a token's text and its
// segment, a callback's segment, and the reply so far once when a stream resumes
// (Reply). The other events are the frame catalog's, as in seed 000's dialect.
type Delta struct{}

// NewDelta returns an encoder for one stream in the delta dialect.
func NewDelta() *Delta { return &Delta{} }

// Encode implements Encoder.
func (Delta) Encode(b []byte, ev Event) ([]byte, error) {
	switch d := ev.Event.Data.(type) {
	case runtime.TextDelta:
		if ev.At.Segment < 0 {
			return b, ErrSkip // an empty delta changes nothing
		}
		return wire.NewTokenDelta(d.Text, ev.At.Segment, false).AppendJSON(b), nil
	case runtime.Callback:
		return wire.NewTokenDelta(ev.At.SegmentText, ev.At.Segment, true).AppendJSON(b), nil
	}
	return appendCatalog(b, ev)
}

// Reply implements Resumer: the reply frame a resumed stream starts with.
func (Delta) Reply(b []byte, segments []string, full string) []byte {
	return append(b, wire.JSON(wire.NewReply(segments, full))...)
}
