package mcp

import (
	"strings"
	"sync"
)

// Tail keeps the last lines written to it (a server's stderr), each cut to a width:
// a server that floods stderr costs a bounded amount of memory and never blocks.
type tail struct {
	mu      sync.Mutex
	lines   []string
	partial strings.Builder
	max     int
	width   int
}

func newTail(lines, width int) *tail { return &tail{max: lines, width: width} }

func (t *tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	s := string(p)
	for {
		i := strings.IndexByte(s, '\n')
		if i < 0 {
			if room := t.width - t.partial.Len(); room > 0 {
				t.partial.WriteString(s[:min(len(s), room)])
			}
			return len(p), nil
		}
		if room := t.width - t.partial.Len(); room > 0 {
			t.partial.WriteString(s[:min(i, room)])
		}
		t.push(strings.TrimRight(t.partial.String(), "\r"))
		t.partial.Reset()
		s = s[i+1:]
	}
}

func (t *tail) push(line string) {
	t.lines = append(t.lines, strings.ToValidUTF8(line, "\uFFFD"))
	if len(t.lines) > t.max {
		t.lines = append(t.lines[:0], t.lines[len(t.lines)-t.max:]...)
	}
}

// Lines returns the last lines, the one being written included.
func (t *tail) Lines() []string {
	t.mu.Lock()
	defer t.mu.Unlock()
	out := append([]string(nil), t.lines...)
	if t.partial.Len() > 0 {
		out = append(out, strings.ToValidUTF8(t.partial.String(), "\uFFFD"))
	}
	if len(out) > t.max {
		out = out[len(out)-t.max:]
	}
	return out
}
