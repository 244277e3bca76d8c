package wire

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// out is a terminal-output frame with the fields of its event set by set.
func out(run string, seq int64, ev TerminalEvent, set func(*TerminalOutput)) TerminalOutput {
	t := NewTerminalOutput(run, "owner", seq, ev)
	if set != nil {
		set(&t)
	}
	return t
}

func TestTerminalOutputJSON(t *testing.T) {
	tests := []struct {
		ev   TerminalOutput
		want string
	}{
		{out("run-1-abcdef", 1, TerminalStart, func(t *TerminalOutput) { t.Command, t.MaxDurationMs = `ls "a"`, 30000 }),
			`{"type":"terminal-output","runId":"run-1-abcdef","event":"start","seq":1,"command":"ls \"a\"","maxDurationMs":30000}`},
		{out("r", 2, TerminalStdout, func(t *TerminalOutput) { t.Data = "a\r\n\x1b[31m\x00é\\" }),
			`{"type":"terminal-output","runId":"r","event":"stdout","seq":2,"data":"a\r\n\u001b[31m\u0000é\\"}`},
		{out("r", 3, TerminalStderr, func(t *TerminalOutput) { t.Data = "\t\xffx" }),
			`{"type":"terminal-output","runId":"r","event":"stderr","seq":3,"data":"\t\ufffdx"}`},
		{out("r", 4, TerminalTimeout, func(t *TerminalOutput) { t.MaxDurationMs = 1000 }),
			`{"type":"terminal-output","runId":"r","event":"timeout","seq":4,"maxDurationMs":1000}`},
		{out("r", 5, TerminalExit, func(t *TerminalOutput) { t.Code = 124 }),
			`{"type":"terminal-output","runId":"r","event":"exit","seq":5,"code":124}`},
		{out("r", 6, TerminalExit, nil), // exit code 0 is sent
			`{"type":"terminal-output","runId":"r","event":"exit","seq":6,"code":0}`},
		{out("r", 1, TerminalError, func(t *TerminalOutput) { t.Data = "no shell" }),
			`{"type":"terminal-output","runId":"r","event":"error","seq":1,"data":"no shell"}`},
	}
	for _, tt := range tests {
		got, err := Encode(tt.ev)
		if err != nil || string(got) != tt.want {
			t.Errorf("got  %s (%v)\nwant %s", got, err, tt.want)
		}
	}
}

func TestTerminalOutputRoundTrip(t *testing.T) {
	ev := out("run-1-x", 7, TerminalStdout, func(t *TerminalOutput) { t.Data = strings.Repeat("\x00ab\n", 100) })
	var m map[string]any
	if err := json.Unmarshal(ev.AppendJSON(nil), &m); err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"type": "terminal-output", "runId": "run-1-x", "event": "stdout", "seq": 7.0, "data": ev.Data}
	if !reflect.DeepEqual(m, want) {
		t.Fatalf("got %v", m)
	}
}

// The hand-written token encoders write what encoding/json would.
func TestTokenJSON(t *testing.T) {
	for _, tok := range []Token{NewToken("a\"\n", "x a\"\n", false), NewToken("full \u2028", "full \u2028", true)} {
		got, _ := Encode(tok)
		var fromFast, fromJSON map[string]any
		if err := json.Unmarshal(got, &fromFast); err != nil {
			t.Fatal(err)
		}
		_ = json.Unmarshal(JSON(tok), &fromJSON)
		if !reflect.DeepEqual(fromFast, fromJSON) {
			t.Errorf("fast %s, encoding/json %s", got, JSON(tok))
		}
	}
}
