package main

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/wispapp/wisp/app/store"
)

func TestExpand(t *testing.T) {
	at := time.UnixMilli(1_700_000_000_000)
	row := func(seq int64, typ, data string) store.RunEvent {
		return store.RunEvent{RunID: "r", Seq: seq, Type: typ, Data: json.RawMessage(data), Time: at}
	}
	for _, tc := range []struct {
		name string
		in   store.RunEvent
		want []store.RunEvent
	}{
		{"a merged stretch gives back its deltas, numbered up to its own",
			row(7, "text_delta", `{"text":"Hi there!","cuts":[2,6,1]}`),
			[]store.RunEvent{row(5, "text_delta", `{"text":"Hi"}`), row(6, "text_delta", `{"text":" there"}`), row(7, "text_delta", `{"text":"!"}`)}},
		{"thinking too", row(2, "thinking", `{"text":"ab","cuts":[1,1]}`),
			[]store.RunEvent{row(1, "thinking", `{"text":"a"}`), row(2, "thinking", `{"text":"b"}`)}},
		{"a lone delta stays", row(3, "text_delta", `{"text":"x"}`), []store.RunEvent{row(3, "text_delta", `{"text":"x"}`)}},
		{"other events stay", row(9, "output", `{"fullText":"Hi"}`), []store.RunEvent{row(9, "output", `{"fullText":"Hi"}`)}},
	} {
		got, err := expand(tc.in)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if len(got) != len(tc.want) {
			t.Fatalf("%s: %d rows, want %d", tc.name, len(got), len(tc.want))
		}
		for i := range got {
			g, w := got[i], tc.want[i]
			if g.RunID != w.RunID || g.Seq != w.Seq || g.Type != w.Type || string(g.Data) != string(w.Data) || !g.Time.Equal(w.Time) {
				t.Errorf("%s: row %d = %+v (%s), want %+v (%s)", tc.name, i, g, g.Data, w, w.Data)
			}
		}
	}
	if _, err := expand(row(2, "text_delta", `{"text":"ab","cuts":[1,5]}`)); err == nil {
		t.Error("cuts past the end of the text were accepted")
	}
}
