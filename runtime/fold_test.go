package runtime

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/wispapp/wisp/runtime/llm"
	"github.com/wispapp/wisp/runtime/reply"
)

func TestDecodeEventRoundTrip(t *testing.T) {
	events := []Event{
		{EventTextDelta, TextDelta{Text: "a\nb"}},
		{EventThinking, Thinking{Text: "hmm"}},
		{EventToolStart, ToolStart{CallID: "c", Name: "N", Arguments: json.RawMessage(`{"a":1}`)}},
		{EventCallback, Callback{CallID: "c", Text: "s", Merge: MergeAppend}},
		{EventToolEnd, ToolEnd{CallID: "c", Name: "N", Error: "bad"}},
		{EventError, Error{Message: "m", Recoverable: true}},
		{EventOutput, Output{FullText: "f", Usage: llm.Usage{InputTokens: 1}, StopReason: "end_turn", Steps: 2, MessageID: "m1"}},
		{EventInterrupted, Interrupted{Reason: "r"}},
	}
	for _, ev := range events {
		data, err := json.Marshal(ev.Data)
		if err != nil {
			t.Fatal(err)
		}
		got, err := DecodeEvent(string(ev.Type), data)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, ev) {
			t.Errorf("round trip of %s: got %#v", ev.Type, got)
		}
	}
	if _, err := DecodeEvent("text_delta", []byte("{")); err == nil {
		t.Error("bad JSON decoded")
	}
}

func TestApplyRebuildsTheReply(t *testing.T) {
	var r reply.Reply
	for _, ev := range []Event{
		{EventTextDelta, TextDelta{Text: "Hi"}},
		{EventToolStart, ToolStart{CallID: "c"}},
		{EventCallback, Callback{CallID: "c", Text: "one"}},
		{EventCallback, Callback{CallID: "c", Text: "two", Merge: MergeReplace}},
		{EventCallback, Callback{CallID: "c", Text: " more", Merge: MergeAppend}},
		{EventThinking, Thinking{Text: "ignored"}},
		{EventTextDelta, TextDelta{Text: "Bye"}},
	} {
		Apply(&r, ev)
	}
	if got := r.FullText(); got != "Hi\n\ntwo more\n\nBye" {
		t.Fatalf("fullText = %q", got)
	}
}
