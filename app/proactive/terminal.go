package proactive

import (
	"fmt"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/wispapp/wisp/app/wire"
)

// LongRun is how long a terminal run must last for Wisp to say how it ended.
const LongRun = 30 * time.Second

// terminalWatch follows shell runs from their events: every finished run becomes a
// happening for the autonomy loop, and a long one a proactive notice.
type terminalWatch struct {
	s    *Service
	mu   sync.Mutex
	runs map[string]*watchedRun
}

type watchedRun struct {
	command  string
	started  time.Time
	timedOut bool
}

func newTerminalWatch(s *Service) *terminalWatch {
	return &terminalWatch{s: s, runs: map[string]*watchedRun{}}
}

// TerminalOutput follows every terminal-output frame. It never blocks: output
// returns at once, and a notice is delivered in the background.
func (s *Service) TerminalOutput(e wire.TerminalOutput) {
	switch e.Event {
	case wire.TerminalStart, wire.TerminalTimeout, wire.TerminalExit:
		s.terminal.observe(e)
	}
}

func (w *terminalWatch) observe(e wire.TerminalOutput) {
	now := w.s.opts.Clock.Now()
	w.mu.Lock()
	run := w.runs[e.RunID]
	switch e.Event {
	case wire.TerminalStart:
		w.runs[e.RunID] = &watchedRun{command: e.Command, started: now}
	case wire.TerminalTimeout:
		if run != nil {
			run.timedOut = true
		}
	case wire.TerminalExit:
		delete(w.runs, e.RunID)
	}
	w.mu.Unlock()
	if e.Event != wire.TerminalExit || run == nil {
		return
	}
	took := now.Sub(run.started)
	text := runOutcome(run, e.Code, took)
	w.s.activity.add(text)
	if took >= LongRun && w.s.opts.Settings().NotifyLongRuns {
		w.s.goDeliver(Note{Text: text, Source: SourceTerminal})
	}
}

// runOutcome tells how a run ended, in a sentence.
func runOutcome(run *watchedRun, code int, took time.Duration) string {
	cmd := "`" + shorten(run.command, 200) + "`"
	d := humanDuration(took)
	switch {
	case run.timedOut:
		return fmt.Sprintf("The command %s was stopped at its time limit, after %s.", cmd, d)
	case code == 0:
		return fmt.Sprintf("The command %s finished after %s (exit code 0).", cmd, d)
	case code > 128 && code < 128+65:
		return fmt.Sprintf("The command %s was ended by signal %d after %s.", cmd, code-128, d)
	}
	return fmt.Sprintf("The command %s failed after %s with exit code %d.", cmd, d, code)
}

// humanDuration writes 45 s, 2 min 14 s or 1 h 3 min.
func humanDuration(d time.Duration) string {
	s := int(d.Round(time.Second) / time.Second)
	switch {
	case s < 60:
		return fmt.Sprintf("%d s", s)
	case s < 3600:
		if s%60 == 0 {
			return fmt.Sprintf("%d min", s/60)
		}
		return fmt.Sprintf("%d min %d s", s/60, s%60)
	}
	return fmt.Sprintf("%d h %d min", s/3600, s%3600/60)
}

// shorten cuts s to at most n runes, marking the cut with an ellipsis.
func shorten(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}
