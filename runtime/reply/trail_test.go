package reply

import "testing"

func TestTrailFromHistory(t *testing.T) {
	tests := []struct {
		name    string
		text    string
		history []string
		want    string
	}{
		{
			name:    "seed example",
			text:    "Now playing: **Track**",
			history: []string{"Looking up track...", "Searching for track...", "Now playing: **Track**"},
			want:    "Looking up track...\nSearching for track...\n\nNow playing: **Track**",
		},
		{
			name: "seed example with emoji statuses",
			text: "Now playing: **Track**",
			history: []string{
				"🔍 Looking up track...", "🔍 Searching for track...", "✨ Setting up playback...", "Now playing: **Track**",
			},
			want: "🔍 Looking up track...\n🔍 Searching for track...\n✨ Setting up playback...\n\nNow playing: **Track**",
		},
		{name: "no history", text: "plain answer", want: "plain answer"},
		{name: "nothing", want: ""},
		{name: "history equal to text", text: "Done", history: []string{"Done"}, want: "Done"},
		{name: "trailing entry matches trimmed text", text: "  Done\n", history: []string{"Working", "Done"}, want: "Working\n\n  Done\n"},
		{name: "final text not in history", text: "Error", history: []string{"Working"}, want: "Working\n\nError"},
		{name: "only an earlier match is kept", text: "A", history: []string{"A", "B"}, want: "A\nB\n\nA"},
		{name: "empty text keeps every state", history: []string{"A", "B"}, want: "A\nB"},
		{name: "blank entries in saved data are skipped", text: "C", history: []string{"", "A", " ", "C"}, want: "A\n\nC"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := TrailFromHistory(tt.text, tt.history); got != tt.want {
				t.Errorf("TrailFromHistory = %q, want %q", got, tt.want)
			}
			seg := []Segment{{Kind: KindCallback, Text: tt.text, History: tt.history}}
			if got := Trail(seg); got != tt.want {
				t.Errorf("Trail of one segment = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestTrail(t *testing.T) {
	tests := []struct {
		name string
		segs []Segment
		want string
	}{
		{name: "no segments", want: ""},
		{name: "text only", segs: []Segment{{Kind: KindText, Text: "Hello"}}, want: "Hello"},
		{
			name: "text, action, text",
			segs: []Segment{
				{Kind: KindText, Text: "Let me check."},
				{Kind: KindCallback, Text: "Found 3", CallID: "a", History: []string{"Searching", "Found 3"}},
				{Kind: KindText, Text: "Here they are."},
			},
			want: "Let me check.\n\nSearching\n\nFound 3\n\nHere they are.",
		},
		{
			name: "empty segments are skipped",
			segs: []Segment{
				{Kind: KindText, Text: ""},
				{Kind: KindCallback, CallID: "a"},
				{Kind: KindText, Text: "x"},
				{Kind: KindCallback, CallID: "b"},
			},
			want: "x",
		},
		{
			name: "callback cleared after states",
			segs: []Segment{
				{Kind: KindText, Text: "pre"},
				{Kind: KindCallback, CallID: "a", History: []string{"one", "two"}},
			},
			want: "pre\n\none\ntwo",
		},
		{
			name: "text segments ignore history",
			segs: []Segment{{Kind: KindText, Text: "t", History: []string{"stray"}}},
			want: "t",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Trail(tt.segs); got != tt.want {
				t.Errorf("Trail = %q, want %q", got, tt.want)
			}
		})
	}
}
