package shell

import (
	"log/slog"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/wispapp/wisp/internal/jsonpatch"
	"github.com/wispapp/wisp/runtime"
	"github.com/wispapp/wisp/terminal"
)

// progress publishes a running command's progress for clients that follow the run:
// custom events "shell_progress", and the run's state at /shell, which every
// command of the run replaces (docs/chat.md).
type progress struct {
	call    runtime.Call
	log     *slog.Logger
	started time.Time
	// on: /shell is this call's (its start applied); each later patch also tests
	// that it still is, so it never changes another command's.
	on bool
}

// shellState is the run's state at /shell.
type shellState struct {
	CallID        string `json:"callId"`
	Command       string `json:"command"`
	TerminalRunID string `json:"terminalRunId"`
	Status        string `json:"status"` // running, exited, timed_out, failed, stopped
	ElapsedMs     int64  `json:"elapsedMs"`
	LastLine      string `json:"lastLine"`
	ExitCode      *int   `json:"exitCode,omitempty"`
}

// lastLineMax bounds the line /shell and the events carry.
const lastLineMax = 200

func (p *progress) start(command, runID string) {
	p.on = p.patch(jsonpatch.Add("/shell", shellState{CallID: p.call.ID, Command: command, TerminalRunID: runID, Status: "running"}))
}

// tick reports the command's last line so far.
func (p *progress) tick(tail string) {
	line := lastLine(tail)
	elapsed := time.Since(p.started).Milliseconds()
	p.call.Custom("shell_progress", map[string]any{"elapsedMs": elapsed, "lastLine": line})
	if p.on {
		p.patch(p.mine(), jsonpatch.Replace("/shell/elapsedMs", elapsed), jsonpatch.Replace("/shell/lastLine", line))
	}
}

// end records how the command ended; stopped is set when the run was stopped.
func (p *progress) end(res terminal.Result, out string, stopped bool) {
	if !p.on {
		return
	}
	status := "exited"
	switch {
	case stopped:
		status = "stopped"
	case res.Error != "":
		status = "failed"
	case res.TimedOut:
		status = "timed_out"
	}
	p.patch(p.mine(), jsonpatch.Replace("/shell/status", status), jsonpatch.Replace("/shell/elapsedMs", res.DurationMs),
		jsonpatch.Replace("/shell/lastLine", lastLine(out)), jsonpatch.Add("/shell/exitCode", res.ExitCode))
}

// mine tests that /shell is still this call's.
func (p *progress) mine() jsonpatch.Op { return jsonpatch.Test("/shell/callId", p.call.ID) }

func (p *progress) patch(ops ...jsonpatch.Op) bool {
	if err := p.call.Patch(ops...); err != nil {
		p.log.Warn("shell progress not recorded", "call", p.call.ID, "err", err)
		return false
	}
	return true
}

// lastLine is the last non-blank line of text, cut to lastLineMax bytes on a rune
// boundary.
func lastLine(text string) string {
	text = strings.TrimRight(text, " \t\r\n")
	if i := strings.LastIndexByte(text, '\n'); i >= 0 {
		text = text[i+1:]
	}
	text = strings.TrimSpace(text)
	if len(text) <= lastLineMax {
		return text
	}
	cut := lastLineMax
	for cut > 0 && !utf8.RuneStart(text[cut]) {
		cut--
	}
	return text[:cut] + "…"
}
