package terminal

import (
	"strconv"

	"github.com/wispapp/wisp/internal/jsonstr"
)

// Kind is the sub-event of a terminal-output event (seed 004).
type Kind string

// The sub-events, in the order a run produces them.
const (
	KindStart   Kind = "start"
	KindStdout  Kind = "stdout"
	KindStderr  Kind = "stderr"
	KindTimeout Kind = "timeout"
	KindExit    Kind = "exit"
	KindError   Kind = "error"
)

// Event is one terminal-output event. Seq numbers a run's events from 1 so a client
// can merge a scrollback snapshot with live events.
type Event struct {
	RunID string
	// Owner is the client id the run belongs to; empty for a run started on the
	// agent's behalf, which every client may see.
	Owner         string
	Seq           int64
	Kind          Kind
	Command       string // start
	MaxDurationMs int64  // start, timeout
	Data          string // stdout, stderr, error
	Code          int    // exit
}

// AppendJSON appends the event's wire form:
// {"type":"terminal-output","runId":…,"event":…,"seq":…, plus the fields of its kind}.
// It is hand-written because output events are the hottest path of a run.
func (e Event) AppendJSON(b []byte) []byte {
	b = append(b, `{"type":"terminal-output","runId":`...)
	b = jsonstr.Append(b, e.RunID)
	b = append(b, `,"event":`...)
	b = jsonstr.Append(b, string(e.Kind))
	b = append(b, `,"seq":`...)
	b = strconv.AppendInt(b, e.Seq, 10)
	switch e.Kind {
	case KindStart:
		b = append(b, `,"command":`...)
		b = jsonstr.Append(b, e.Command)
		b = append(b, `,"maxDurationMs":`...)
		b = strconv.AppendInt(b, e.MaxDurationMs, 10)
	case KindTimeout:
		b = append(b, `,"maxDurationMs":`...)
		b = strconv.AppendInt(b, e.MaxDurationMs, 10)
	case KindExit:
		b = append(b, `,"code":`...)
		b = strconv.AppendInt(b, int64(e.Code), 10)
	default:
		b = append(b, `,"data":`...)
		b = jsonstr.Append(b, e.Data)
	}
	return append(b, '}')
}
