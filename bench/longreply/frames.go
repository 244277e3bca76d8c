package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// frame is every field a chat SSE frame of either dialect carries that this
// driver reads (docs/chat.md). Every data line is decoded into it, so the
// parse time is what a client pays to decode the stream.
type frame struct {
	Type     string   `json:"type"`
	Text     string   `json:"text"`
	FullText string   `json:"fullText"`
	Segment  int      `json:"segment"`
	Callback bool     `json:"callback"`
	Segments []string `json:"segments"`
	Message  string   `json:"message"`
}

// parsed is what decoding a stream's frames found.
type parsed struct {
	tokens     int    // token frames
	frames     int    // data lines
	lastID     int64  // the last id: line
	lastFull   string // the last token frame's fullText (Eliza dialect)
	done       bool   // a done frame arrived
	doneFull   string // its fullText
	failure    string // an error frame's message
	folded     string // the reply the delta dialect's client fold makes
	parsedSize int    // bytes of raw this covered (whole frames only)
}

// completeFrames is the longest prefix of raw made of whole SSE frames (each
// ends with a blank line).
func completeFrames(raw []byte) []byte {
	i := bytes.LastIndex(raw, []byte("\n\n"))
	if i < 0 {
		return nil
	}
	return raw[:i+2]
}

// lastFrame is the last whole frame of raw; ok is false when raw holds no
// blank line before it, so that it may have begun before raw did.
func lastFrame(raw []byte) (f []byte, ok bool) {
	raw = completeFrames(raw)
	if len(raw) < 2 {
		return nil, false
	}
	start := bytes.LastIndex(raw[:len(raw)-2], []byte("\n\n"))
	if start < 0 {
		return raw, false
	}
	return raw[start+2:], true
}

// parseFrames decodes every data line of the whole frames in raw, in order,
// folding delta frames as a client of the delta dialect does.
func parseFrames(raw []byte) (parsed, error) {
	raw = completeFrames(raw)
	p := parsed{parsedSize: len(raw)}
	var fold deltaFold
	var f frame
	for len(raw) > 0 {
		var line []byte
		if i := bytes.IndexByte(raw, '\n'); i >= 0 {
			line, raw = raw[:i], raw[i+1:]
		} else {
			line, raw = raw, nil
		}
		if id, ok := bytes.CutPrefix(line, []byte("id: ")); ok {
			n, err := strconv.ParseInt(string(id), 10, 64)
			if err != nil {
				return p, fmt.Errorf("bad id line %.80q", line)
			}
			p.lastID = n
			continue
		}
		data, ok := bytes.CutPrefix(line, []byte("data: "))
		if !ok {
			continue // the blank line ending a frame, or a `:` comment
		}
		f = frame{}
		if err := json.Unmarshal(data, &f); err != nil {
			return p, fmt.Errorf("frame %d is not JSON: %.120q", p.frames+1, data)
		}
		p.frames++
		p.note(f)
		fold.apply(f)
	}
	p.folded = fold.text()
	return p, nil
}

// note records what a decoded frame says about the stream.
func (p *parsed) note(f frame) {
	switch f.Type {
	case "token":
		p.tokens++
		p.lastFull = f.FullText
	case "done":
		p.done, p.doneFull = true, f.FullText
	case "error":
		p.failure = f.Message
	}
}

// deltaFold is a delta-dialect client's reply (docs/chat.md): a list of segment
// texts that token frames append to (callbacks replace), and a reply frame sets.
type deltaFold struct {
	segs [][]byte
}

func (d *deltaFold) apply(f frame) {
	switch f.Type {
	case "token":
		for len(d.segs) <= f.Segment {
			d.segs = append(d.segs, nil)
		}
		if f.Callback {
			d.segs[f.Segment] = d.segs[f.Segment][:0]
		}
		d.segs[f.Segment] = append(d.segs[f.Segment], f.Text...)
	case "reply":
		d.segs = d.segs[:0]
		for _, s := range f.Segments {
			d.segs = append(d.segs, []byte(s))
		}
	}
}

// text is the visible reply: the non-empty segments joined by a blank line.
func (d *deltaFold) text() string {
	var parts []string
	for _, s := range d.segs {
		if len(s) > 0 {
			parts = append(parts, string(s))
		}
	}
	return strings.Join(parts, "\n\n")
}
