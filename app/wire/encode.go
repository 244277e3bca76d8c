package wire

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/wispapp/wisp/internal/jsonstr"
)

// appender is a frame with a hand-written encoder, for the hottest paths.
type appender interface {
	AppendJSON(b []byte) []byte
}

// Encode is a frame's JSON.
func Encode(f Frame) ([]byte, error) {
	if a, ok := f.(appender); ok {
		return a.AppendJSON(nil), nil
	}
	return json.Marshal(f)
}

// AppendJSON appends the frame's JSON with only its event's fields:
// {"type":"terminal-output","runId":…,"event":…,"seq":…, plus those fields}. It is
// hand-written because output is the hottest path of a run.
func (t TerminalOutput) AppendJSON(b []byte) []byte {
	b = append(b, `{"type":"terminal-output","runId":`...)
	b = jsonstr.Append(b, t.RunID)
	b = append(b, `,"event":`...)
	b = jsonstr.Append(b, string(t.Event))
	b = append(b, `,"seq":`...)
	b = strconv.AppendInt(b, t.Seq, 10)
	switch t.Event {
	case TerminalStart:
		b = append(b, `,"command":`...)
		b = jsonstr.Append(b, t.Command)
		b = append(b, `,"maxDurationMs":`...)
		b = strconv.AppendInt(b, t.MaxDurationMs, 10)
	case TerminalTimeout:
		b = append(b, `,"maxDurationMs":`...)
		b = strconv.AppendInt(b, t.MaxDurationMs, 10)
	case TerminalExit:
		b = append(b, `,"code":`...)
		b = strconv.AppendInt(b, int64(t.Code), 10)
	default:
		b = append(b, `,"data":`...)
		b = jsonstr.Append(b, t.Data)
	}
	return append(b, '}')
}

// AppendJSON appends the token frame's JSON.
func (t Token) AppendJSON(b []byte) []byte {
	if t.Callback {
		b = AppendTokenEscaped(b, t.Text, jsonstr.AppendBody(nil, t.FullText))
		return append(b[:len(b)-1], `,"callback":true}`...)
	}
	return AppendTokenEscaped(b, t.Text, jsonstr.AppendBody(nil, t.FullText))
}

// AppendJSON appends the delta token frame's JSON: {"type":"token","text":…} with
// "segment" when it is not 0 and "callback" when set.
func (t TokenDelta) AppendJSON(b []byte) []byte {
	b = append(b, `{"type":"token","text":`...)
	b = jsonstr.Append(b, t.Text)
	if t.Segment != 0 {
		b = append(b, `,"segment":`...)
		b = strconv.AppendInt(b, int64(t.Segment), 10)
	}
	if t.Callback {
		b = append(b, `,"callback":true`...)
	}
	return append(b, '}')
}

// AppendTokenEscaped appends a token frame whose fullText is already escaped (the
// inside of a JSON string): a stream that keeps the escaped reply escapes only each
// new delta instead of the whole reply again.
func AppendTokenEscaped(b []byte, text string, escapedFull []byte) []byte {
	b = append(b, `{"type":"token","text":`...)
	b = jsonstr.Append(b, text)
	b = append(b, `,"fullText":"`...)
	b = append(b, escapedFull...)
	return append(b, `"}`...)
}

// FormatEventID renders an envelope number as the wire's "evt-N".
func FormatEventID(n int64) string { return "evt-" + strconv.FormatInt(n, 10) }

// ParseEventID reads "evt-N" (N ≥ 0).
func ParseEventID(s string) (int64, error) {
	num, ok := strings.CutPrefix(s, "evt-")
	n, err := strconv.ParseInt(num, 10, 64)
	if !ok || err != nil || n < 0 || strconv.FormatInt(n, 10) != num {
		return 0, fmt.Errorf("event id %q is not of the form evt-N", s)
	}
	return n, nil
}
