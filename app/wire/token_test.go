package wire

import (
	"encoding/json"
	"reflect"
	"testing"
	"unicode/utf8"
)

// The token encoders are hand-written; they must say what encoding/json says.
func FuzzTokenEncoders(f *testing.F) {
	f.Add("Hello", "Hello", 0, false)
	f.Add("\x00<tag> \"q\" \\ \u2028", "x\n\ny", 3, true)
	f.Add("", "", -1, false)
	f.Fuzz(func(t *testing.T, text, full string, segment int, callback bool) {
		if !utf8.ValidString(text) || !utf8.ValidString(full) {
			t.Skip("invalid UTF-8 is replaced by both encoders, not compared")
		}
		for _, frame := range []any{NewTokenDelta(text, segment, callback), NewToken(text, full, callback)} {
			got := frame.(appender).AppendJSON([]byte("prefix"))
			if string(got[:6]) != "prefix" {
				t.Fatalf("%T: the prefix was overwritten", frame)
			}
			want, err := json.Marshal(frame)
			if err != nil {
				t.Fatal(err)
			}
			var a, b map[string]any
			if err := json.Unmarshal(got[6:], &a); err != nil {
				t.Fatalf("%T: %q is not JSON: %v", frame, got[6:], err)
			}
			if err := json.Unmarshal(want, &b); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(a, b) {
				t.Fatalf("%T: AppendJSON = %s, encoding/json = %s", frame, got[6:], want)
			}
		}
	})
}
