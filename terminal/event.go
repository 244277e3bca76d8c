package terminal

import (
	"slices"
	"strconv"
	"unicode/utf8"
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
	b = appendString(b, e.RunID)
	b = append(b, `,"event":`...)
	b = appendString(b, string(e.Kind))
	b = append(b, `,"seq":`...)
	b = strconv.AppendInt(b, e.Seq, 10)
	switch e.Kind {
	case KindStart:
		b = append(b, `,"command":`...)
		b = appendString(b, e.Command)
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
		b = appendString(b, e.Data)
	}
	return append(b, '}')
}

const hexDigits = "0123456789abcdef"

// escapeWidth is how many bytes an ASCII byte takes inside a JSON string.
var escapeWidth = func() (w [utf8.RuneSelf]uint8) {
	for c := range w {
		switch {
		case c == '"' || c == '\\' || c == '\n' || c == '\r' || c == '\t':
			w[c] = 2
		case c < 0x20:
			w[c] = 6 // \u00XX
		default:
			w[c] = 1
		}
	}
	return w
}()

// escapedLen is the length of s as a JSON string body, so the output is sized once
// (NUL-heavy output grows sixfold).
func escapedLen(s string) int {
	n := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			n += int(escapeWidth[c])
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			n += 6 // \ufffd
		} else {
			n += size
		}
		i += size
	}
	return n
}

// appendString appends s as a JSON string. Invalid UTF-8 becomes U+FFFD, as
// encoding/json does; control characters are escaped.
func appendString(b []byte, s string) []byte {
	b = slices.Grow(b, escapedLen(s)+2)
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if escapeWidth[c] == 1 {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			start = i + 1
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}
