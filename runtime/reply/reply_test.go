package reply

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// step is one thing that happens to a reply during a turn.
type step struct {
	op   string // "text", "start", "replace" or "append"
	id   string
	text string
}

func text(s string) step               { return step{op: "text", text: s} }
func start(id string) step             { return step{op: "start", id: id} }
func replace(id, s string) step        { return step{op: "replace", id: id, text: s} }
func appendCallback(id, s string) step { return step{op: "append", id: id, text: s} }

func (s step) apply(r *Reply) {
	switch s.op {
	case "text":
		r.AppendText(s.text)
	case "start":
		r.StartAction(s.id)
	case "replace":
		r.Callback(s.id, s.text, false)
	case "append":
		r.Callback(s.id, s.text, true)
	default:
		panic("unknown op " + s.op)
	}
}

func run(steps ...step) *Reply {
	r := &Reply{}
	for _, s := range steps {
		s.apply(r)
	}
	return r
}

// naiveFullText is the definition of FullText, recomputed from the segments.
func naiveFullText(segs []Segment) string {
	var parts []string
	for _, s := range segs {
		if len(s.Text) > 0 {
			parts = append(parts, s.Text)
		}
	}
	return strings.Join(parts, "\n\n")
}

func TestAppendTextIsRaw(t *testing.T) {
	tests := []struct {
		name   string
		deltas []string
		want   string
	}{
		{"empty reply", nil, ""},
		{"dots stay dots", []string{".", ".", "."}, "..."},
		{"repeated tokens are kept", []string{"ha", "ha"}, "haha"},
		{"overlap is not merged", []string{"Hello wor", "world"}, "Hello worworld"},
		{"whitespace is kept", []string{"  a ", " b\n", "\n"}, "  a  b\n\n"},
		{"empty deltas change nothing", []string{"", "a", "", "b", ""}, "ab"},
		{"split multibyte rune", []string{"\xf0\x9f", "\x8e\xb5"}, "🎵"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := &Reply{}
			for _, d := range tt.deltas {
				r.AppendText(d)
			}
			if got := r.FullText(); got != tt.want {
				t.Errorf("FullText = %q, want %q", got, tt.want)
			}
			segs := r.Segments()
			if tt.want == "" {
				if len(segs) != 0 {
					t.Errorf("Segments = %#v, want none", segs)
				}
				return
			}
			if want := []Segment{{Kind: KindText, Text: tt.want}}; !reflect.DeepEqual(segs, want) {
				t.Errorf("Segments = %#v, want %#v", segs, want)
			}
		})
	}
}

// The seed's music player: the LLM says one line, then the action's statuses replace each
// other in place, and a reload shows the whole trail.
func TestMusicPlayerExample(t *testing.T) {
	const pre = "Let me play that for you."
	statuses := []string{
		"🔍 Looking up track...",
		"🔍 Searching for track...",
		"✨ Setting up playback...",
		"Now playing: **Song**",
	}
	for _, withPre := range []bool{true, false} {
		r := &Reply{}
		want := ""
		if withPre {
			for _, tok := range []string{"Let", " me", " play", " that", " for", " you", "."} {
				r.AppendText(tok)
			}
			want = pre + "\n\n" // the seed's `pre ? "\n\n" : ""`
		}
		r.StartAction("play-1")
		for i, s := range statuses {
			r.Callback("play-1", s, false)
			got := r.FullText()
			if got != want+s {
				t.Fatalf("pre=%v: after callback %d FullText = %q, want %q", withPre, i, got, want+s)
			}
			for j, other := range statuses {
				if j != i && strings.Contains(got, other) {
					t.Errorf("pre=%v: after callback %d FullText %q still shows %q", withPre, i, got, other)
				}
			}
		}
		if got := r.History(); !reflect.DeepEqual(got, statuses) {
			t.Errorf("pre=%v: History = %q, want %q", withPre, got, statuses)
		}
		wantTrail := want + "🔍 Looking up track...\n🔍 Searching for track...\n✨ Setting up playback...\n\nNow playing: **Song**"
		if got := Trail(r.Segments()); got != wantTrail {
			t.Errorf("pre=%v: Trail = %q, want %q", withPre, got, wantTrail)
		}
	}
}

func TestReplyRules(t *testing.T) {
	tests := []struct {
		name    string
		steps   []step
		full    string
		history []string
		trail   string
		segs    []Segment
	}{
		{
			name:  "zero value",
			full:  "",
			trail: "",
			segs:  []Segment{},
		},
		{
			name:  "started action without callbacks shows nothing",
			steps: []step{text("Hi"), start("a")},
			full:  "Hi",
			trail: "Hi",
			segs:  []Segment{{Kind: KindText, Text: "Hi"}, {Kind: KindCallback, CallID: "a"}},
		},
		{
			name:    "text after an action starts a new text segment",
			steps:   []step{text("Sure."), start("a"), replace("a", "Done"), text("All"), text(" set.")},
			full:    "Sure.\n\nDone\n\nAll set.",
			history: []string{"Done"},
			trail:   "Sure.\n\nDone\n\nAll set.",
			segs: []Segment{
				{Kind: KindText, Text: "Sure."},
				{Kind: KindCallback, Text: "Done", CallID: "a", History: []string{"Done"}},
				{Kind: KindText, Text: "All set."},
			},
		},
		{
			name:    "text after an action that has not called back yet",
			steps:   []step{text("A"), start("a"), text("B"), replace("a", "status")},
			full:    "A\n\nstatus\n\nB",
			history: []string{"status"},
			trail:   "A\n\nstatus\n\nB",
			segs: []Segment{
				{Kind: KindText, Text: "A"},
				{Kind: KindCallback, Text: "status", CallID: "a", History: []string{"status"}},
				{Kind: KindText, Text: "B"},
			},
		},
		{
			name: "two actions keep their own segments",
			steps: []step{
				text("Two things."), start("a"), start("b"),
				replace("a", "A1"), replace("b", "B1"), replace("a", "A2"), replace("b", "B2"),
			},
			full:    "Two things.\n\nA2\n\nB2",
			history: []string{"A1", "A2", "B1", "B2"},
			trail:   "Two things.\n\nA1\n\nA2\n\nB1\n\nB2",
			segs: []Segment{
				{Kind: KindText, Text: "Two things."},
				{Kind: KindCallback, Text: "A2", CallID: "a", History: []string{"A1", "A2"}},
				{Kind: KindCallback, Text: "B2", CallID: "b", History: []string{"B1", "B2"}},
			},
		},
		{
			name:    "unknown callID opens a segment at the end",
			steps:   []step{text("x"), replace("late", "ok")},
			full:    "x\n\nok",
			history: []string{"ok"},
			trail:   "x\n\nok",
			segs: []Segment{
				{Kind: KindText, Text: "x"},
				{Kind: KindCallback, Text: "ok", CallID: "late", History: []string{"ok"}},
			},
		},
		{
			name:    "starting an action twice is harmless",
			steps:   []step{start("a"), replace("a", "one"), start("a"), replace("a", "two")},
			full:    "two",
			history: []string{"one", "two"},
			trail:   "one\n\ntwo",
			segs:    []Segment{{Kind: KindCallback, Text: "two", CallID: "a", History: []string{"one", "two"}}},
		},
		{
			name:    "replace keeps the text as given and records it trimmed",
			steps:   []step{replace("a", "  Loading…\n")},
			full:    "  Loading…\n",
			history: []string{"Loading…"},
			trail:   "  Loading…\n",
			segs:    []Segment{{Kind: KindCallback, Text: "  Loading…\n", CallID: "a", History: []string{"Loading…"}}},
		},
		{
			name:    "repeated status is recorded once",
			steps:   []step{replace("a", "wait"), replace("a", "wait "), replace("a", "done"), replace("a", "wait")},
			full:    "wait",
			history: []string{"wait", "done", "wait"},
			trail:   "wait\ndone\n\nwait",
			segs:    []Segment{{Kind: KindCallback, Text: "wait", CallID: "a", History: []string{"wait", "done", "wait"}}},
		},
		{
			name:    "empty callbacks clear the segment but record nothing",
			steps:   []step{text("pre"), replace("a", "Working"), replace("a", ""), replace("a", "  ")},
			full:    "pre\n\n  ",
			history: []string{"Working"},
			trail:   "pre\n\nWorking\n\n  ",
			segs: []Segment{
				{Kind: KindText, Text: "pre"},
				{Kind: KindCallback, Text: "  ", CallID: "a", History: []string{"Working"}},
			},
		},
		{
			name:    "empty callback hides the segment",
			steps:   []step{text("pre"), replace("a", "Working"), replace("a", ""), text("post")},
			full:    "pre\n\npost",
			history: []string{"Working"},
			trail:   "pre\n\nWorking\n\npost",
			segs: []Segment{
				{Kind: KindText, Text: "pre"},
				{Kind: KindCallback, CallID: "a", History: []string{"Working"}},
				{Kind: KindText, Text: "post"},
			},
		},
		{
			name:  "only empty callbacks",
			steps: []step{replace("a", ""), appendCallback("a", "")},
			full:  "",
			trail: "",
			segs:  []Segment{{Kind: KindCallback, CallID: "a"}},
		},
		{
			name:    "append callbacks extend the text and its last state",
			steps:   []step{text("pre"), appendCallback("a", "Step 1"), appendCallback("a", ", step 2"), appendCallback("a", " ")},
			full:    "pre\n\nStep 1, step 2 ",
			history: []string{"Step 1, step 2"},
			trail:   "pre\n\nStep 1, step 2 ",
			segs: []Segment{
				{Kind: KindText, Text: "pre"},
				{Kind: KindCallback, Text: "Step 1, step 2 ", CallID: "a", History: []string{"Step 1, step 2"}},
			},
		},
		{
			name:    "append after replaces extends the latest state",
			steps:   []step{replace("a", "Looking up"), replace("a", "Found"), appendCallback("a", ": Song")},
			full:    "Found: Song",
			history: []string{"Looking up", "Found: Song"},
			trail:   "Looking up\n\nFound: Song",
			segs:    []Segment{{Kind: KindCallback, Text: "Found: Song", CallID: "a", History: []string{"Looking up", "Found: Song"}}},
		},
		{
			name:    "replace after appends records a new state",
			steps:   []step{appendCallback("a", "Part"), appendCallback("a", "ial"), replace("a", "Done")},
			full:    "Done",
			history: []string{"Partial", "Done"},
			trail:   "Partial\n\nDone",
			segs:    []Segment{{Kind: KindCallback, Text: "Done", CallID: "a", History: []string{"Partial", "Done"}}},
		},
		{
			name:    "append after a blank replace keeps the earlier state",
			steps:   []step{replace("a", "Shown"), replace("a", ""), appendCallback("a", "Next")},
			full:    "Next",
			history: []string{"Shown", "Next"},
			trail:   "Shown\n\nNext",
			segs:    []Segment{{Kind: KindCallback, Text: "Next", CallID: "a", History: []string{"Shown", "Next"}}},
		},
		{
			name:  "append of whitespace only records nothing",
			steps: []step{appendCallback("a", " \n")},
			full:  " \n",
			trail: " \n",
			segs:  []Segment{{Kind: KindCallback, Text: " \n", CallID: "a"}},
		},
		{
			name:    "append returning to the previous state does not repeat it",
			steps:   []step{replace("a", "ab"), replace("a", "a"), appendCallback("a", "b")},
			full:    "ab",
			history: []string{"ab"},
			trail:   "ab",
			segs:    []Segment{{Kind: KindCallback, Text: "ab", CallID: "a", History: []string{"ab"}}},
		},
		{
			name: "callback on an earlier action after later text",
			steps: []step{
				text("one"), start("a"), replace("a", "A1"), text("two"), start("b"), replace("b", "B1"),
				text("three"), replace("a", "A2"), text(" more"), appendCallback("b", "!"),
			},
			full:    "one\n\nA2\n\ntwo\n\nB1!\n\nthree more",
			history: []string{"A1", "A2", "B1!"},
			trail:   "one\n\nA1\n\nA2\n\ntwo\n\nB1!\n\nthree more",
			segs: []Segment{
				{Kind: KindText, Text: "one"},
				{Kind: KindCallback, Text: "A2", CallID: "a", History: []string{"A1", "A2"}},
				{Kind: KindText, Text: "two"},
				{Kind: KindCallback, Text: "B1!", CallID: "b", History: []string{"B1!"}},
				{Kind: KindText, Text: "three more"},
			},
		},
		{
			name:    "History drops duplicates across segments",
			steps:   []step{replace("a", "Done"), replace("b", "Done"), replace("b", "Next")},
			full:    "Done\n\nNext",
			history: []string{"Done", "Next"},
			trail:   "Done\n\nDone\n\nNext",
			segs: []Segment{
				{Kind: KindCallback, Text: "Done", CallID: "a", History: []string{"Done"}},
				{Kind: KindCallback, Text: "Next", CallID: "b", History: []string{"Done", "Next"}},
			},
		},
		{
			name:    "empty callID is an ordinary id",
			steps:   []step{replace("", "x"), replace("", "y")},
			full:    "y",
			history: []string{"x", "y"},
			trail:   "x\n\ny",
			segs:    []Segment{{Kind: KindCallback, Text: "y", History: []string{"x", "y"}}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := run(tt.steps...)
			if got := r.FullText(); got != tt.full {
				t.Errorf("FullText = %q, want %q", got, tt.full)
			}
			if got := r.History(); !reflect.DeepEqual(got, tt.history) {
				t.Errorf("History = %q, want %q", got, tt.history)
			}
			segs := r.Segments()
			if !reflect.DeepEqual(segs, tt.segs) {
				t.Errorf("Segments = %#v\nwant %#v", segs, tt.segs)
			}
			if got := Trail(segs); got != tt.trail {
				t.Errorf("Trail = %q, want %q", got, tt.trail)
			}
			if got := naiveFullText(segs); got != r.FullText() {
				t.Errorf("FullText %q differs from the segments' %q", r.FullText(), got)
			}
		})
	}
}

// FullText after every step (the streaming pattern) must match the definition, whichever
// path (extend in place or rebuild) produced it.
func TestFullTextAfterEveryStep(t *testing.T) {
	steps := []step{
		text("a"), text("b"), start("x"), text("c"), replace("x", "X1"), text("d"),
		appendCallback("x", "+"), replace("y", "Y"), appendCallback("y", "y"), text("e"),
		replace("y", ""), text("f"), replace("x", ""), replace("x", "X2"), start("z"),
		appendCallback("z", "Z"), appendCallback("z", "z"), replace("z", "ZZ"), text(""),
	}
	r := &Reply{}
	for i, s := range steps {
		s.apply(r)
		if got, want := r.FullText(), naiveFullText(r.Segments()); got != want {
			t.Fatalf("after step %d %+v: FullText = %q, want %q", i, s, got, want)
		}
	}
}

// Strings returned by FullText must never change afterwards.
func TestFullTextResultsAreImmutable(t *testing.T) {
	r := &Reply{}
	var got, want []string
	record := func() {
		s := r.FullText()
		got = append(got, s)
		want = append(want, strings.Clone(s))
	}
	for i := 0; i < 200; i++ {
		r.AppendText("tok ")
		record()
		if i%50 == 10 {
			r.Callback("a", "status", false)
			record()
			r.Callback("a", "other", false)
			record()
		}
	}
	for i := range got {
		if got[i] != want[i] {
			t.Fatalf("FullText result %d changed: %q, was %q", i, got[i], want[i])
		}
	}
}

func TestSegmentsIsADeepCopy(t *testing.T) {
	r := run(text("a"), replace("c", "one"), replace("c", "two"))
	segs := r.Segments()
	segs[0].Text = "changed"
	segs[1].History[0] = "changed"
	segs[1].CallID = "other"
	if got := r.Segments(); !reflect.DeepEqual(got, run(text("a"), replace("c", "one"), replace("c", "two")).Segments()) {
		t.Errorf("editing a copy changed the reply: %#v", got)
	}
}

func TestSegmentJSON(t *testing.T) {
	r := run(text("Hi"), start("call_1"), replace("call_1", "Done"))
	got, err := json.Marshal(r.Segments())
	if err != nil {
		t.Fatal(err)
	}
	want := `[{"kind":"text","text":"Hi"},{"kind":"callback","text":"Done","callId":"call_1","history":["Done"]}]`
	if string(got) != want {
		t.Errorf("JSON = %s\nwant %s", got, want)
	}
}

// Streaming n tokens with FullText after each must not copy the reply each time.
func TestAppendFullTextIsAmortised(t *testing.T) {
	const tokens = 10000
	allocs := testing.AllocsPerRun(5, func() {
		r := &Reply{}
		for i := 0; i < tokens; i++ {
			r.AppendText("word ")
			_ = r.FullText()
		}
	})
	// Growing two buffers by doubling takes a few dozen allocations; copying the
	// reply on every token would take one per token.
	if allocs > 200 {
		t.Errorf("%v allocations for %d tokens, want amortised growth", allocs, tokens)
	}
}
