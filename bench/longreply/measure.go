package main

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"runtime"
	"strings"
	"time"
)

// kind is one of the four streams measured at each length.
type kind int

const (
	wispEliza kind = iota // Wisp, the default dialect: fullText in every token frame
	wispDelta             // Wisp, ?dialect=delta
	bareDelta             // floor: a bare SSE server writing delta frames
	relay                 // floor: the fake model through runtime/llm, re-sent as delta frames
	kinds
)

var kindNames = [kinds]string{"Wisp Eliza", "Wisp delta", "bare delta", "relay"}

// sample is one stream's figures.
type sample struct {
	bytes      int64
	wall, cpu  time.Duration
	parse      time.Duration // decoding the frames of parsedSize bytes, after the stream
	parsedSize int64
	compactCPU time.Duration // Wisp: CPU from the end of the stream to its log compacted
}

// parseAll is the time to decode every frame of the stream: measured when all
// of it was kept, else scaled from the kept head by bytes.
func (s sample) parseAll() time.Duration {
	if s.parsedSize == 0 {
		return 0
	}
	return time.Duration(float64(s.parse) * float64(s.bytes) / float64(s.parsedSize))
}

// sampled reports whether parseAll is scaled from part of the stream.
func (s sample) sampled() bool { return s.parsedSize < s.bytes }

// streams measures the four kinds of stream at every length.
type streams struct {
	cfg    config
	w      *wisp
	floors *floors
	client *http.Client
	res    *results
}

// runLength measures one length: the kinds take turns (the first of each
// round rotating), Eliza's dialect only elizaRuns times.
func (m *streams) runLength(ctx context.Context, n int, record bool) error {
	rounds := m.cfg.repeats(n)
	if !record {
		rounds = 1
	}
	for round := range rounds {
		for i := range kinds {
			k := (kind(round) + i) % kinds
			if k == wispEliza && round >= m.cfg.elizaRuns(n) {
				continue
			}
			s, err := m.one(ctx, k, n)
			if err != nil {
				return fmt.Errorf("%s, %d words: %w", kindNames[k], n, err)
			}
			if record {
				m.res.add(n, k, s)
			}
		}
	}
	if record {
		m.res.progress(n)
	}
	return nil
}

// one streams a reply of n words as kind k, then decodes what was kept and
// checks it.
func (m *streams) one(ctx context.Context, k kind, n int) (sample, error) {
	url, err := m.url(ctx, k, n)
	if err != nil {
		return sample{}, err
	}
	runtime.GC() // start each stream from a collected heap, outside the timing
	sh, err := get(ctx, m.client, url, fmt.Appendf(nil, `{"text":%q}`, prompt(n)), m.cfg.keep)
	if err != nil {
		return sample{}, err
	}
	s := sample{bytes: sh.body.total, wall: sh.wall, cpu: sh.cpu}
	if k == wispEliza || k == wispDelta {
		cpu := processCPU()
		if err := m.w.awaitCompacted(ctx, sh.runID); err != nil {
			return s, err
		}
		s.compactCPU = processCPU() - cpu
	}
	p, took, err := timeParse(sh.body.head)
	s.parse, s.parsedSize = took, int64(p.parsedSize)
	if err != nil {
		return s, err
	}
	m.check(k, n, sh, p)
	return s, nil
}

// timeParse decodes raw's frames from a collected heap and times it: the
// fastest of three decodes for up to 16 MB, one decode above.
func timeParse(raw []byte) (p parsed, best time.Duration, err error) {
	tries := 1
	if len(raw) <= 16<<20 {
		tries = 3
	}
	for i := range tries {
		runtime.GC()
		start := time.Now()
		p, err = parseFrames(raw)
		if took := time.Since(start); i == 0 || took < best {
			best = took
		}
		if err != nil {
			return p, best, err
		}
	}
	return p, best, nil
}

func (m *streams) url(ctx context.Context, k kind, n int) (string, error) {
	switch k {
	case bareDelta:
		return fmt.Sprintf("%s/delta?n=%d", m.floors.url, n), nil
	case relay:
		return fmt.Sprintf("%s/relay?n=%d", m.floors.url, n), nil
	}
	conv, err := m.w.newConversation(ctx) // a fresh one each time: no history grows
	if err != nil {
		return "", err
	}
	if k == wispDelta {
		return m.w.streamURL(conv, "delta"), nil
	}
	return m.w.streamURL(conv, ""), nil
}

// check records how a stream differs from the reply asked for: its done
// frame's fullText must be the joined chunks, and so must the delta fold (or,
// in Eliza's dialect, the last token frame's fullText), with one token frame
// per chunk. Of a stream kept only in part, the final frame is checked.
func (m *streams) check(k kind, n int, sh shot, p parsed) {
	want := strings.Join(words(n), "")
	what := fmt.Sprintf("%s, %d words", kindNames[k], n)
	if !sh.body.whole() {
		f, err := sh.body.final(tailWindow)
		if err == nil {
			p, err = parseFrames(f)
		}
		switch {
		case err != nil:
			m.res.problem("%s: final frame: %v", what, err)
		case !p.done || p.doneFull != want:
			m.res.problem("%s: the final frame is not a done frame with the reply as fullText", what)
		}
		m.res.checked++
		return
	}
	fold, foldName := p.folded, "the delta fold"
	if k == wispEliza {
		fold, foldName = p.lastFull, "the last token frame's fullText"
	}
	switch {
	case p.failure != "":
		m.res.problem("%s: error frame: %s", what, p.failure)
	case !p.done:
		m.res.problem("%s: no done frame", what)
	case p.tokens != n:
		m.res.problem("%s: %d token frames for %d chunks", what, p.tokens, n)
	case p.doneFull != want:
		m.res.problem("%s: done fullText (%d bytes) is not the joined chunks (%d bytes)", what, len(p.doneFull), len(want))
	case fold != want:
		m.res.problem("%s: %s (%d bytes) is not the reply (%d bytes)", what, foldName, len(fold), len(want))
	}
	m.res.checked++
}

// progress prints one length's medians on stderr.
func (r *results) progress(n int) {
	row := r.byLen[n]
	var b strings.Builder
	fmt.Fprintf(&b, "%6d words:", n)
	for k := range kinds {
		fmt.Fprintf(&b, " · %s %s, %.0f ms, cpu %.0f ms", kindNames[k], sizeText(median(row[k], bytesOf)),
			median(row[k], wallOf), median(row[k], cpuOf))
	}
	fmt.Fprintln(os.Stderr, b.String())
}
