package proactive

import (
	"testing"
	"time"

	"github.com/wispapp/wisp/app/wire"
)

func TestLongTerminalRunsAreReported(t *testing.T) {
	cases := []struct {
		name   string
		took   time.Duration
		code   int
		limit  bool
		notify bool
		want   string // "" when no notice is due
	}{
		{"short", 29 * time.Second, 0, false, true, ""},
		{"long", 2*time.Minute + 14*time.Second, 0, false, true, "The command `make test` finished after 2 min 14 s (exit code 0)."},
		{"failed", 30 * time.Second, 2, false, true, "The command `make test` failed after 30 s with exit code 2."},
		{"killed", 90 * time.Minute, 137, false, true, "The command `make test` was ended by signal 9 after 1 h 30 min."},
		{"time limit", 5 * time.Minute, 124, true, true, "The command `make test` was stopped at its time limit, after 5 min."},
		{"notices off", time.Hour, 0, false, false, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t)
			a := h.conversation("A", t0)
			h.set.NotifyLongRuns = tc.notify
			h.svc.TerminalOutput(terminalEvent("r", wire.TerminalStart, func(f *wire.TerminalOutput) { f.Command = "make test" }))
			h.svc.TerminalOutput(terminalEvent("r", wire.TerminalStdout, func(f *wire.TerminalOutput) { f.Data = "ok" }))
			h.clk.Advance(tc.took)
			if tc.limit {
				h.svc.TerminalOutput(terminalEvent("r", wire.TerminalTimeout, nil))
			}
			h.svc.TerminalOutput(terminalEvent("r", wire.TerminalExit, func(f *wire.TerminalOutput) { f.Code = tc.code }))
			h.svc.Stop() // waits for the background delivery
			msgs := h.messages(a.ID)
			if tc.want == "" {
				if len(msgs) != 0 {
					t.Fatalf("unexpected notice %+v", msgs)
				}
			} else if len(msgs) != 1 || msgs[0].Text != tc.want || msgs[0].Source != SourceTerminal {
				t.Fatalf("messages %+v, want %q", msgs, tc.want)
			}
			// Every finished run is something the autonomy loop can mention.
			if got := h.svc.activity.since(time.Time{}); len(got) != 1 {
				t.Fatalf("activity %+v", got)
			}
		})
	}
}

func TestUnknownRunsAndLongCommands(t *testing.T) {
	h := newHarness(t)
	h.svc.TerminalOutput(terminalEvent("never-started", wire.TerminalExit, nil))
	if got := h.svc.activity.since(time.Time{}); len(got) != 0 {
		t.Fatalf("an exit without a start was recorded: %+v", got)
	}
	long := make([]rune, 300)
	for i := range long {
		long[i] = 'é'
	}
	if got := []rune(shorten(string(long), 200)); len(got) != 200 || got[199] != '…' {
		t.Fatalf("shorten kept %d runes", len(got))
	}
	if humanDuration(59*time.Second+600*time.Millisecond) != "1 min" || humanDuration(3*time.Minute) != "3 min" {
		t.Fatal("humanDuration rounds to the second")
	}
}
