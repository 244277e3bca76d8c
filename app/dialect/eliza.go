package dialect

import (
	"unicode/utf8"

	"github.com/wispapp/wisp/app/wire"
	"github.com/wispapp/wisp/internal/jsonstr"
	"github.com/wispapp/wisp/runtime"
)

// Eliza is seed 000's dialect: every token frame carries the whole reply (fullText).
type Eliza struct {
	// escFull is the JSON-escaped fullText (no quotes) of rawLen bytes of reply text.
	// Model text only ever extends fullText, so a token frame escapes only its delta
	// instead of the whole reply again.
	escFull []byte
	rawLen  int
	escOK   bool
}

// NewEliza returns an encoder for one stream in seed 000's dialect.
func NewEliza() *Eliza { return &Eliza{} }

// Encode implements Encoder.
func (e *Eliza) Encode(b []byte, ev Event) ([]byte, error) {
	switch d := ev.Event.Data.(type) {
	case runtime.TextDelta:
		return wire.AppendTokenEscaped(b, d.Text, e.escapedFullText(ev.At.Full, d.Text)), nil
	case runtime.Callback:
		e.escOK = false // a callback may have changed any part of the reply
		return wire.NewToken(ev.At.Full, ev.At.Full, true).AppendJSON(b), nil
	case runtime.Speech:
		return appendCatalog(b, ev) // the reply is as it was: the escape cache holds
	}
	e.escOK = false
	return appendCatalog(b, ev)
}

// escapedFullText returns the escaped fullText after a text delta, extending the cached
// escape by the new suffix when it can.
func (e *Eliza) escapedFullText(full, delta string) []byte {
	if e.escOK && len(full) >= e.rawLen && utf8.ValidString(delta) {
		e.escFull = jsonstr.AppendBody(e.escFull, full[e.rawLen:])
	} else {
		e.escFull = jsonstr.AppendBody(e.escFull[:0], full)
	}
	e.rawLen, e.escOK = len(full), true
	return e.escFull
}
