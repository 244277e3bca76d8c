package reply

import (
	"fmt"
	"strings"
	"testing"
)

// FuzzAppend streams slices of src as LLM deltas, interleaved with actions and callbacks
// chosen by ops. No delta may be lost, reordered or merged away.
//
// Each op byte is k = b&3, n = b>>2: k < 3 appends the next n bytes of src; k == 3 starts
// action n%4 (n&4 == 0) or calls it back (append mode if n&8 != 0).
func FuzzAppend(f *testing.F) {
	f.Add([]byte{4, 4, 4}, "...")
	f.Add([]byte{8, 8}, "haha")
	f.Add([]byte{40, 3, 20, 7, 23, 255, 36}, "Let me play that for you. Done! Enjoy.")
	f.Add([]byte{0, 3, 0, 7, 4, 11, 4, 15, 4}, "abc")
	f.Add([]byte{13, 4, 3, 8, 31, 12, 19, 200, 1, 9}, "\xf0\x9f\x8e\xb5 split runes \r\n  spaces  ")
	f.Fuzz(func(t *testing.T, ops []byte, src string) {
		r := &Reply{}     // with actions
		plain := &Reply{} // the same deltas, text only
		var all strings.Builder
		var groups []string // expected text segments
		open := false       // whether the next delta extends groups' last entry
		known := map[string]bool{}
		pos := 0
		for i, b := range ops {
			k, n := b&3, int(b>>2)
			if k < 3 {
				delta := src[pos:min(pos+n, len(src))]
				pos += len(delta)
				r.AppendText(delta)
				plain.AppendText(delta)
				all.WriteString(delta)
				if delta != "" {
					if !open {
						groups = append(groups, "")
						open = true
					}
					groups[len(groups)-1] += delta
				}
			} else {
				id := string(rune('a' + n%4))
				if n&4 == 0 {
					r.StartAction(id)
				} else {
					r.Callback(id, fmt.Sprintf("status %d", n), n&8 != 0)
				}
				if !known[id] {
					known[id] = true
					open = false // a new segment now follows the text
				}
			}
			if got, want := r.FullText(), naiveFullText(r.Segments()); got != want {
				t.Fatalf("op %d: FullText = %q, want %q", i, got, want)
			}
			if got, want := plain.FullText(), all.String(); got != want {
				t.Fatalf("op %d: text-only FullText = %q, want %q", i, got, want)
			}
		}
		var got []string
		for _, s := range r.Segments() {
			if s.Kind == KindText {
				got = append(got, s.Text)
			}
		}
		if strings.Join(got, "") != all.String() {
			t.Fatalf("text segments %q do not add up to the deltas %q", got, all.String())
		}
		if fmt.Sprintf("%q", got) != fmt.Sprintf("%q", groups) {
			t.Fatalf("text segments = %q, want %q", got, groups)
		}
	})
}

// FuzzCallbacks sends the "|"-separated statuses as successive callbacks of one action
// after the LLM text pre; bit i of appendMask makes callback i an append.
func FuzzCallbacks(f *testing.F) {
	f.Add("Let me play that for you.", "🔍 Looking up track...|🔍 Searching for track...|✨ Setting up playback...|Now playing: **Song**", uint16(0))
	f.Add("", "a|b|c", uint16(0))
	f.Add("pre", "wait|wait |  |done|wait", uint16(0))
	f.Add("pre", "Step 1|, step 2|Done|!", uint16(0b1011))
	f.Add("", "ab|a|b", uint16(0b100))
	f.Add("x", "| |\n|", uint16(0b1010))
	f.Fuzz(func(t *testing.T, pre, raw string, appendMask uint16) {
		statuses := strings.Split(raw, "|")
		if len(statuses) > 64 {
			statuses = statuses[:64]
		}
		r := &Reply{}
		half := len(pre) / 2
		r.AppendText(pre[:half])
		r.AppendText(pre[half:])
		r.StartAction("act")

		cur := ""                  // the action's text
		shown := map[string]bool{} // trimmed states the segment showed
		var wantHistory []string   // while every callback is a replace
		replaceOnly := true
		for i, s := range statuses {
			appendMode := i < 16 && appendMask&(1<<i) != 0
			r.Callback("act", s, appendMode)
			if appendMode {
				cur += s
				replaceOnly = false
			} else {
				cur = s
				if state := strings.TrimSpace(s); state != "" && (len(wantHistory) == 0 || wantHistory[len(wantHistory)-1] != state) {
					wantHistory = append(wantHistory, state)
				}
			}
			shown[strings.TrimSpace(cur)] = true

			want := naiveFullText([]Segment{{Text: pre}, {Text: cur}})
			got := r.FullText()
			if got != want {
				t.Fatalf("callback %d: FullText = %q, want %q", i, got, want)
			}
			if naive := naiveFullText(r.Segments()); got != naive {
				t.Fatalf("callback %d: FullText = %q, segments give %q", i, got, naive)
			}
			if replaceOnly {
				for _, earlier := range statuses[:i] {
					if earlier != "" && !strings.Contains(want, earlier) && strings.Contains(got, earlier) {
						t.Fatalf("callback %d: FullText %q still shows %q", i, got, earlier)
					}
				}
			}

			history := r.History()
			for j, h := range history {
				if h == "" {
					t.Fatalf("callback %d: empty History entry in %q", i, history)
				}
				if j > 0 && history[j-1] == h {
					t.Fatalf("callback %d: consecutive duplicate in History %q", i, history)
				}
				if !shown[h] {
					t.Fatalf("callback %d: History entry %q was never shown", i, h)
				}
			}
			if state := strings.TrimSpace(cur); state != "" && history[len(history)-1] != state {
				t.Fatalf("callback %d: History %q does not end with the shown %q", i, history, state)
			}
			if replaceOnly && fmt.Sprintf("%q", history) != fmt.Sprintf("%q", wantHistory) {
				t.Fatalf("callback %d: History = %q, want %q", i, history, wantHistory)
			}
		}
		trail := Trail(r.Segments())
		if !strings.HasPrefix(trail, pre) || !strings.HasSuffix(trail, cur) {
			t.Fatalf("Trail %q does not start with %q and end with %q", trail, pre, cur)
		}
	})
}
