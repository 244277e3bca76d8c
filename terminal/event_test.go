package terminal

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestEventJSON(t *testing.T) {
	tests := []struct {
		ev   Event
		want string
	}{
		{Event{RunID: "run-1-abcdef", Seq: 1, Kind: KindStart, Command: `ls "a"`, MaxDurationMs: 30000},
			`{"type":"terminal-output","runId":"run-1-abcdef","event":"start","seq":1,"command":"ls \"a\"","maxDurationMs":30000}`},
		{Event{RunID: "r", Seq: 2, Kind: KindStdout, Data: "a\r\n\x1b[31m\x00é\\"},
			`{"type":"terminal-output","runId":"r","event":"stdout","seq":2,"data":"a\r\n\u001b[31m\u0000é\\"}`},
		{Event{RunID: "r", Seq: 3, Kind: KindStderr, Data: "\t\xffx"},
			`{"type":"terminal-output","runId":"r","event":"stderr","seq":3,"data":"\t\ufffdx"}`},
		{Event{RunID: "r", Seq: 4, Kind: KindTimeout, MaxDurationMs: 1000},
			`{"type":"terminal-output","runId":"r","event":"timeout","seq":4,"maxDurationMs":1000}`},
		{Event{RunID: "r", Seq: 5, Kind: KindExit, Code: 124},
			`{"type":"terminal-output","runId":"r","event":"exit","seq":5,"code":124}`},
		{Event{RunID: "r", Seq: 1, Kind: KindError, Data: "no shell"},
			`{"type":"terminal-output","runId":"r","event":"error","seq":1,"data":"no shell"}`},
	}
	for _, tt := range tests {
		if got := string(tt.ev.AppendJSON(nil)); got != tt.want {
			t.Errorf("got  %s\nwant %s", got, tt.want)
		}
	}
}

func TestEventRoundTrip(t *testing.T) {
	ev := Event{RunID: "run-1-x", Seq: 7, Kind: KindStdout, Data: strings.Repeat("\x00ab\n", 100)}
	var m map[string]any
	if err := json.Unmarshal(ev.AppendJSON(nil), &m); err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"type": "terminal-output", "runId": "run-1-x", "event": "stdout", "seq": 7.0, "data": ev.Data}
	if !reflect.DeepEqual(m, want) {
		t.Fatalf("got %v", m)
	}
}

func TestCompletePrefix(t *testing.T) {
	euro := "€" // e2 82 ac
	tests := []struct {
		in   string
		want int
	}{
		{"", 0},
		{"abc", 3},
		{"a" + euro, 4},
		{"a" + euro[:1], 1},
		{"a" + euro[:2], 1},
		{"😀"[:3], 0},
		{"\xff", 1},           // never valid: not held back
		{"a\x82", 2},          // a stray continuation byte is not held back
		{"ab\x82\x82\x82", 5}, // nor a run of them
	}
	for _, tt := range tests {
		if got := completePrefix([]byte(tt.in)); got != tt.want {
			t.Errorf("completePrefix(% x) = %d, want %d", tt.in, got, tt.want)
		}
	}
}

// FuzzCompletePrefix: cutting valid text anywhere, the part sent is valid, and at
// most 3 bytes (one unfinished character) are held back.
func FuzzCompletePrefix(f *testing.F) {
	f.Add("a€😀é", 3)
	f.Fuzz(func(t *testing.T, s string, cut int) {
		if !utf8.ValidString(s) || len(s) == 0 {
			return
		}
		cut = ((cut % (len(s) + 1)) + len(s) + 1) % (len(s) + 1)
		b := []byte(s[:cut])
		n := completePrefix(b)
		if !utf8.Valid(b[:n]) || len(b)-n > 3 {
			t.Fatalf("cut %d of %q: sent %d bytes", cut, s, n)
		}
		if !utf8.ValidString(s[n:]) {
			t.Fatalf("the rest %q is not valid on its own", s[n:])
		}
	})
}
