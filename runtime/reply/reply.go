// Package reply is the visible-reply model of a chat turn: a list of segments that LLM
// text appends to and action callbacks replace or extend, the text the user sees while
// the turn streams (FullText), the callback states it went through (History) and the
// text shown when a saved conversation is reloaded (Trail).
//
// It is pure code: no I/O, no goroutines, and it must not import other Wisp packages.
package reply

import (
	"bytes"
	"strings"
)

// Kind says what produced a segment.
type Kind string

// The kinds of segment.
const (
	KindText     Kind = "text"     // streamed LLM text; deltas are appended to it
	KindCallback Kind = "callback" // the text of one action invocation's callbacks
)

// sep joins the visible parts of a reply.
const sep = "\n\n"

// Segment is one part of a reply as it is shown and saved.
type Segment struct {
	Kind    Kind     `json:"kind"`
	Text    string   `json:"text"`
	CallID  string   `json:"callId,omitempty"`  // callback segments: the action invocation owning it
	History []string `json:"history,omitempty"` // callback segments: the states it went through
}

// Reply is the visible reply of one turn. LLM deltas go to AppendText, action calls to
// StartAction and Callback; FullText is what the user sees.
//
// The zero value is an empty reply ready to use. A Reply is not safe for concurrent use
// and must not be copied after first use (it holds a strings.Builder).
type Reply struct {
	segs  []segment
	owner map[string]int // callID → index in segs of the callback segment it owns

	// full is FullText when fullOK. Appends to the last segment extend it in place, so
	// streaming a reply token by token costs O(len(delta)) per token; a change to any
	// other part clears fullOK and the next FullText rebuilds it once.
	full   strings.Builder
	fullOK bool
}

// segment is a Segment being built. text is a []byte so appends are amortised O(delta).
type segment struct {
	kind    Kind
	callID  string
	text    []byte
	history []string
	// live means the segment's history has one more entry than history holds: the
	// trimmed current text (added only if non-empty and not equal to the last entry).
	// Append callbacks keep it live so extending a status does not copy it each time.
	live bool
}

// AppendText appends an LLM delta as is: to the last segment if it is text, otherwise to
// a new text segment. Deltas are never trimmed or merged by overlap, so "." + "." + "."
// gives "..." and "ha" + "ha" gives "haha". It returns the index of the segment the
// delta went to; an empty delta changes nothing and returns -1.
func (r *Reply) AppendText(delta string) int {
	if delta == "" {
		return -1
	}
	if n := len(r.segs); n == 0 || r.segs[n-1].kind != KindText {
		r.segs = append(r.segs, segment{kind: KindText})
	}
	r.extend(len(r.segs)-1, delta)
	return len(r.segs) - 1
}

// StartAction opens an empty callback segment owned by callID, so text streamed after it
// starts a new text segment. It does nothing if callID already owns a segment. It
// returns the index of callID's segment.
func (r *Reply) StartAction(callID string) int {
	if i, ok := r.owner[callID]; ok {
		return i
	}
	return r.open(callID)
}

// Callback applies one action callback to the segment owned by callID: it replaces the
// segment's text (the default) or, with appendMode, appends to it. An unknown callID
// opens a new callback segment at the end first.
//
// A replace records strings.TrimSpace(text) in the segment's history unless it is empty
// or equal to the last entry. An append makes the last entry the trimmed new text when
// that entry is the state being extended, and adds it otherwise; either way every entry
// is a state the segment showed. It returns the index of the segment.
func (r *Reply) Callback(callID, text string, appendMode bool) int {
	i, ok := r.owner[callID]
	if !ok {
		i = r.open(callID)
	}
	if appendMode {
		r.appendCallback(i, text)
	} else {
		r.replaceCallback(i, text)
	}
	return i
}

// SegmentText is the text of segment i ("" when there is no such segment).
func (r *Reply) SegmentText(i int) string {
	if i < 0 || i >= len(r.segs) {
		return ""
	}
	return string(r.segs[i].text)
}

// Texts is every segment's text, in order.
func (r *Reply) Texts() []string {
	out := make([]string, len(r.segs))
	for i := range r.segs {
		out[i] = string(r.segs[i].text)
	}
	return out
}

// FullText is the visible reply: the non-empty segments' texts joined with "\n\n".
// Called after each appended delta it costs O(len(delta)), not O(len(FullText)).
func (r *Reply) FullText() string {
	if !r.fullOK {
		r.rebuild()
	}
	return r.full.String()
}

// History is the turn's actionCallbackHistory: every segment's history in order, with
// consecutive duplicates dropped.
func (r *Reply) History() []string {
	var out []string
	for i := range r.segs {
		for _, h := range r.segs[i].historyView() {
			if len(out) == 0 || out[len(out)-1] != h {
				out = append(out, h)
			}
		}
	}
	return out
}

// Segments returns a deep copy of the reply's segments, ready to save.
func (r *Reply) Segments() []Segment {
	out := make([]Segment, len(r.segs))
	for i := range r.segs {
		s := &r.segs[i]
		out[i] = Segment{Kind: s.kind, Text: string(s.text), CallID: s.callID, History: s.historyView()}
	}
	return out
}

// open appends an empty callback segment owned by callID and returns its index.
func (r *Reply) open(callID string) int {
	r.segs = append(r.segs, segment{kind: KindCallback, callID: callID})
	i := len(r.segs) - 1
	if r.owner == nil {
		r.owner = make(map[string]int)
	}
	r.owner[callID] = i
	return i
}

// extend appends s to segment i's text and keeps full current when i is the last segment.
func (r *Reply) extend(i int, s string) {
	if s == "" {
		return
	}
	seg := &r.segs[i]
	wasEmpty := len(seg.text) == 0
	seg.text = append(seg.text, s...)
	if !r.fullOK {
		return
	}
	if i != len(r.segs)-1 {
		r.fullOK = false
		return
	}
	// full holds the non-empty segments before i (segment i was excluded while empty).
	if wasEmpty && r.full.Len() > 0 {
		r.full.WriteString(sep)
	}
	r.full.WriteString(s)
}

func (r *Reply) replaceCallback(i int, text string) {
	seg := &r.segs[i]
	seg.settle()
	switch {
	case string(seg.text) == text:
		// Same text: nothing visible changes.
	case len(seg.text) == 0:
		r.extend(i, text)
	default:
		seg.text = append(seg.text[:0], text...)
		r.fullOK = false
	}
	seg.history = appendState(seg.history, strings.TrimSpace(text))
}

func (r *Reply) appendCallback(i int, text string) {
	seg := &r.segs[i]
	if !seg.live {
		// If the last entry is the state being extended, the extended text takes its
		// place; otherwise (no entry yet, or the text was replaced by blank) it is added.
		if n := len(seg.history); n > 0 && seg.history[n-1] == string(bytes.TrimSpace(seg.text)) {
			seg.history = seg.history[:n-1]
		}
		seg.live = true
	}
	r.extend(i, text)
}

// historyView is the segment's history including its live entry, as a new slice (nil if
// empty).
func (s *segment) historyView() []string {
	var out []string
	if len(s.history) > 0 {
		out = append(out, s.history...)
	}
	if s.live {
		out = appendState(out, strings.TrimSpace(string(s.text)))
	}
	return out
}

// settle stores the live entry, before a replace changes the text it stands for.
func (s *segment) settle() {
	if s.live {
		s.history = appendState(s.history, strings.TrimSpace(string(s.text)))
		s.live = false
	}
}

// appendState adds state to h unless it is empty or equal to h's last entry.
func appendState(h []string, state string) []string {
	if state == "" || (len(h) > 0 && h[len(h)-1] == state) {
		return h
	}
	return append(h, state)
}

// rebuild recomputes full from the segments.
func (r *Reply) rebuild() {
	n := 0
	for i := range r.segs {
		if len(r.segs[i].text) > 0 {
			n += len(r.segs[i].text) + len(sep)
		}
	}
	// Reset drops the old buffer, so strings returned earlier stay valid.
	r.full.Reset()
	r.full.Grow(n)
	for i := range r.segs {
		if t := r.segs[i].text; len(t) > 0 {
			if r.full.Len() > 0 {
				r.full.WriteString(sep)
			}
			r.full.Write(t)
		}
	}
	r.fullOK = true
}
