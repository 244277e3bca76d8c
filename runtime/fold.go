package runtime

import (
	"encoding/json"
	"fmt"

	"github.com/wispapp/wisp/runtime/reply"
)

// Apply folds one run event into the visible reply and returns the reply after it. It
// is the one place events become the reply: the agent folds each event it emits
// through it (see Emit), and replaying a run's events in order through it rebuilds
// exactly the reply its clients saw.
func Apply(r *reply.Reply, ev Event) Fold {
	at := Fold{Segment: -1}
	switch d := ev.Data.(type) {
	case TextDelta:
		at.Segment = r.AppendText(d.Text)
	case ToolStart:
		at.Segment = r.StartAction(d.CallID)
	case Callback:
		at.Segment = r.Callback(d.CallID, d.Text, d.Merge == MergeAppend)
		at.SegmentText = r.SegmentText(at.Segment)
	}
	at.Full = r.FullText()
	return at
}

// DecodeEvent rebuilds an event from its logged type and JSON data.
func DecodeEvent(typ string, data []byte) (Event, error) {
	var (
		v   any
		err error
	)
	switch EventType(typ) {
	case EventTextDelta:
		v, err = decodeAs[TextDelta](data)
	case EventThinking:
		v, err = decodeAs[Thinking](data)
	case EventToolStart:
		v, err = decodeAs[ToolStart](data)
	case EventCallback:
		v, err = decodeAs[Callback](data)
	case EventToolEnd:
		v, err = decodeAs[ToolEnd](data)
	case EventError:
		v, err = decodeAs[Error](data)
	case EventOutput:
		v, err = decodeAs[Output](data)
	case EventInterrupted:
		v, err = decodeAs[Interrupted](data)
	case EventToolStatus:
		v, err = decodeAs[ToolStatus](data)
	case EventRunPaused:
		v, err = decodeAs[RunPaused](data)
	case EventRunResumed:
		v, err = decodeAs[RunResumed](data)
	case EventStreamResync:
		v, err = decodeAs[StreamResync](data)
	case EventCustom:
		v, err = decodeAs[Custom](data)
	case EventStatePatch:
		v, err = decodeAs[StatePatch](data)
	case EventSummaryStart:
		v, err = decodeAs[SummaryStart](data)
	case EventSummaryDelta:
		v, err = decodeAs[SummaryDelta](data)
	case EventSummaryEnd:
		v, err = decodeAs[SummaryEnd](data)
	case EventSpeech:
		v, err = decodeAs[Speech](data)
	default:
		v, err = decodeAs[json.RawMessage](data)
	}
	if err != nil {
		return Event{}, fmt.Errorf("decode %s event: %w", typ, err)
	}
	return Event{Type: EventType(typ), Data: v}, nil
}

func decodeAs[T any](data []byte) (T, error) {
	var v T
	err := json.Unmarshal(data, &v)
	return v, err
}
