package main

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

func TestParseFramesEliza(t *testing.T) {
	raw := ": heartbeat\n\n" +
		"id: 1\ndata: {\"type\":\"token\",\"text\":\"Hi\",\"fullText\":\"Hi\"}\n\n" +
		"id: 2\ndata: {\"type\":\"token\",\"text\":\" there\",\"fullText\":\"Hi there\"}\n\n" +
		"id: 3\ndata: {\"type\":\"done\",\"fullText\":\"Hi there\",\"runId\":\"r\"}\n\n" +
		"id: 4\ndata: {\"type\":\"tok" // cut mid-frame: not parsed
	p, err := parseFrames([]byte(raw))
	if err != nil {
		t.Fatal(err)
	}
	want := parsed{tokens: 2, frames: 3, lastID: 3, lastFull: "Hi there", done: true, doneFull: "Hi there",
		folded: "Hi there", parsedSize: len(raw) - len("id: 4\ndata: {\"type\":\"tok")}
	if p != want {
		t.Errorf("parseFrames = %+v, want %+v", p, want)
	}
}

func TestDeltaFold(t *testing.T) {
	for _, tc := range []struct {
		name, frames, want string
	}{
		{"tokens append", `{"type":"token","text":"a"} {"type":"token","text":"b"}`, "ab"},
		{"segments join with a blank line", `{"type":"token","text":"a"} {"type":"token","text":"cb","segment":1,"callback":true} {"type":"token","text":"c","segment":2}`, "a\n\ncb\n\nc"},
		{"a callback replaces its segment", `{"type":"token","text":"x","segment":1,"callback":true} {"type":"token","text":"y","segment":1,"callback":true}`, "y"},
		{"empty segments are left out", `{"type":"token","text":"z","segment":2}`, "z"},
		{"reply sets every segment", `{"type":"token","text":"old"} {"type":"reply","segments":["a","","b"],"fullText":"a\n\nb"} {"type":"token","text":"!","segment":2}`, "a\n\nb!"},
		{"other frames change nothing", `{"type":"token","text":"a"} {"type":"thinking","text":"hmm"} {"type":"done","fullText":"a"}`, "a"},
	} {
		var raw strings.Builder
		for i, f := range strings.Fields(tc.frames) { // the frames hold no spaces
			fmt.Fprintf(&raw, "id: %d\ndata: %s\n\n", i+1, f)
		}
		p, err := parseFrames([]byte(raw.String()))
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if p.folded != tc.want {
			t.Errorf("%s: folded %q, want %q", tc.name, p.folded, tc.want)
		}
	}
}

func TestParseFramesRejectsBadJSON(t *testing.T) {
	if _, err := parseFrames([]byte("id: 1\ndata: {nope\n\n")); err == nil {
		t.Error("a data line that is not JSON was accepted")
	}
}

func TestLastFrame(t *testing.T) {
	for _, tc := range []struct {
		raw, want string
		ok        bool
	}{
		{"a\n\nb\n\n", "b\n\n", true},
		{"a\n\nb\n\nc", "b\n\n", true},
		{"only\n\n", "only\n\n", false},
		{"none", "", false},
	} {
		f, ok := lastFrame([]byte(tc.raw))
		if string(f) != tc.want || ok != tc.ok {
			t.Errorf("lastFrame(%q) = %q, %v; want %q, %v", tc.raw, f, ok, tc.want, tc.ok)
		}
	}
}

// stream is an SSE body of n token frames and a done frame, as Wisp's delta
// dialect writes it.
func stream(n int) []byte {
	var b bytes.Buffer
	b.WriteString(": heartbeat\n\n")
	for i := range n {
		fmt.Fprintf(&b, "id: %d\ndata: {\"type\":\"token\",\"text\":\" w%d\"}\n\n", i+1, i)
	}
	fmt.Fprintf(&b, "id: %d\ndata: {\"type\":\"done\",\"fullText\":\"end\"}\n\n", n+1)
	return b.Bytes()
}

func TestReadCapture(t *testing.T) {
	body := stream(40000) // about 1.4 MB: several reads, and the tail slides
	done := "id: 40001\ndata: {\"type\":\"done\",\"fullText\":\"end\"}\n\n"
	for _, tc := range []struct {
		name          string
		limit, window int
		whole, slid   bool
	}{
		{"all kept", 4 << 20, 1 << 10, true, false},
		{"head and a sliding tail", 1000, 100, false, true},
		{"head and a tail just past it", len(body) - 10, 100, false, false},
	} {
		for _, r := range []io.Reader{bytes.NewReader(body), iotest.HalfReader(bytes.NewReader(body))} {
			c, err := readCapture(r, tc.limit, tc.window)
			if err != nil {
				t.Fatalf("%s: %v", tc.name, err)
			}
			if c.total != int64(len(body)) || c.whole() != tc.whole || c.slid != tc.slid {
				t.Errorf("%s: total %d whole %v slid %v; want %d %v %v", tc.name, c.total, c.whole(), c.slid, len(body), tc.whole, tc.slid)
			}
			if !bytes.Equal(c.head, body[:min(len(body), tc.limit)]) {
				t.Errorf("%s: the head is not the stream's first bytes", tc.name)
			}
			f, err := c.final(tc.window)
			if err != nil || string(f) != done {
				t.Errorf("%s: final = %q, %v; want %q", tc.name, f, err, done)
			}
		}
	}
}

func TestFinalTooLongForTheWindow(t *testing.T) {
	body := []byte(": hb\n\nid: 1\ndata: " + strings.Repeat("x", 1<<20) + "\n\n")
	c, err := readCapture(bytes.NewReader(body), 10, 1000)
	if err != nil {
		t.Fatal(err)
	}
	if f, err := c.final(1000); err == nil {
		t.Errorf("final = %.40q, want an error: the frame is longer than the window", f)
	}
}
