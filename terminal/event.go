package terminal

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
