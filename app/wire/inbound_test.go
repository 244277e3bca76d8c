package wire

import (
	"encoding/json"
	"errors"
	"reflect"
	"testing"
)

// Every client frame of the examples decodes into its catalog struct, whole.
func TestDecodeClientFrameExamples(t *testing.T) {
	n := 0
	for _, f := range Examples() {
		if clientFrames[f.FrameType()] != reflect.TypeOf(f) {
			continue
		}
		n++
		data, err := Encode(f)
		if err != nil {
			t.Fatal(err)
		}
		got, err := DecodeClientFrame(data)
		if err != nil {
			t.Fatalf("%s: %v", data, err)
		}
		if !reflect.DeepEqual(got, f) {
			t.Errorf("%s decoded as %#v", data, got)
		}
	}
	if n != len(clientFrames)+1 { // two active-conversation examples
		t.Errorf("%d client examples for %d client frame types", n, len(clientFrames))
	}
}

func TestDecodeClientFrameErrors(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`[]`, "malformed frame: expected a JSON object with a type"},
		{`{"type":3}`, "malformed frame: expected a JSON object with a type"},
		{`{"type":"terminal-resize","runId":"r","cols":"80","rows":24}`, "malformed terminal-resize frame: cols must be a JSON integer"},
		{`{"type":"terminal-input","runId":"r","data":7}`, "malformed terminal-input frame: data must be a JSON string"},
	} {
		if _, err := DecodeClientFrame([]byte(tc.in)); err == nil || err.Error() != tc.want {
			t.Errorf("%s: err = %v, want %q", tc.in, err, tc.want)
		}
	}
	f, err := DecodeClientFrame([]byte(`{"type":"nope","x":1}`))
	if !errors.Is(err, ErrUnknownFrame) || f.FrameType() != "nope" {
		t.Errorf("unknown frame: %v, %v", f, err)
	}
}

func FuzzDecodeClientFrame(f *testing.F) {
	for _, ex := range Examples() {
		if data, err := Encode(ex); err == nil {
			f.Add(data)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		fr, err := DecodeClientFrame(data)
		if err != nil {
			return
		}
		if !json.Valid(data) || reflect.TypeOf(fr) != clientFrames[fr.FrameType()] {
			t.Fatalf("%q decoded as %T", data, fr)
		}
	})
}
