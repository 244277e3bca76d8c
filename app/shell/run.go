package shell

import (
	"context"
	"fmt"
	"github.com/wispapp/wisp/internal/mdquote"
	"strings"
	"time"

	"github.com/wispapp/wisp/runtime"
	"github.com/wispapp/wisp/terminal"
)

// run starts the command as an agent run of the terminal (every client's Terminal
// panel shows it), shows its last lines in the chat while it runs, and returns what
// the model gets back.
func (h *handler) run(ctx context.Context, call runtime.Call, term *terminal.Manager, a args) (string, error) {
	r, err := term.Start(terminal.Spec{Command: a.Command, Dir: a.Cwd, Capture: true})
	if err != nil {
		return "", fmt.Errorf("cannot start the command: %w", err)
	}
	call.Report(runtime.Event{Type: runtime.EventToolStatus, Data: runtime.ToolStatus{
		Status: runtime.ToolExecuting, TerminalRunID: r.ID()}})
	prog := &progress{call: call, log: h.o.Logger, started: time.Now()}
	prog.start(a.Command, r.ID())
	cmd := mdquote.Inline(a.Command)
	call.Callback("Running "+cmd+"…", runtime.MergeReplace)
	shown := ""
	tick := time.NewTicker(h.o.Tick)
	defer tick.Stop()
	for done := false; !done; {
		select {
		case <-r.Done():
			done = true
		case <-ctx.Done():
			_ = r.Kill() // the group goes, as with any run
			<-r.Done()
			done = true
		case <-tick.C:
			if tail := lastLines(r); tail != shown {
				shown = tail
				call.Callback("Running "+cmd+"…\n\n"+mdquote.Fenced(tail), runtime.MergeReplace)
				prog.tick(tail)
			}
		}
	}
	res := r.Result()
	out := output(r, res)
	call.Callback(summary(cmd, res, out), runtime.MergeReplace)
	prog.end(res, out, ctx.Err() != nil)
	if err := ctx.Err(); err != nil {
		return "", fmt.Errorf("stopped while the command ran: %w", context.Cause(ctx))
	}
	return modelResult(res, out), nil
}

// lastLines is what the chat shows of a running command: its last lines.
func lastLines(r *terminal.Run) string {
	return strings.Join(LastLines(Plain(scrollbackText(r)), progressLines, progressWidth), "\n")
}

func scrollbackText(r *terminal.Run) string {
	var b strings.Builder
	for _, c := range r.Snapshot().Scrollback {
		b.WriteString(c.Data)
	}
	return b.String()
}

// output is everything the command wrote, as plain text: the captured streams when
// they are whole, else the captured head and the scrollback's tail.
func output(r *terminal.Run, res terminal.Result) string {
	if !res.Truncated {
		return Plain(res.Stdout + res.Stderr)
	}
	head := Plain(res.Stdout)
	if len(head) > ResultBytes/2 {
		head = head[:ResultBytes/2]
	}
	tail := Plain(scrollbackText(r))
	return head + "\n… [more output than Wisp keeps was cut] …\n" + tail
}

// summary is the action's last callback: the outcome and the output's last lines.
func summary(cmd string, res terminal.Result, out string) string {
	took := time.Duration(res.DurationMs) * time.Millisecond
	var head string
	switch {
	case res.Error != "":
		head = fmt.Sprintf("✗ %s could not run: %s", cmd, res.Error)
	case res.TimedOut:
		head = fmt.Sprintf("✗ %s ran out of time after %s", cmd, round(took))
	case res.ExitCode == 0:
		head = fmt.Sprintf("✓ %s exited 0 in %s", cmd, round(took))
	default:
		head = fmt.Sprintf("✗ %s: exit %d in %s", cmd, res.ExitCode, round(took))
	}
	tail := strings.Join(LastLines(out, progressLines, progressWidth), "\n")
	if tail == "" {
		return head
	}
	return head + "\n\n" + mdquote.Fenced(tail)
}

func round(d time.Duration) string {
	if d < 10*time.Second {
		return fmt.Sprintf("%.1f s", d.Seconds())
	}
	return d.Round(time.Second).String()
}

// modelResult is what the model reads: the exit code and the output, head and tail.
func modelResult(res terminal.Result, out string) string {
	var b strings.Builder
	switch {
	case res.Error != "":
		fmt.Fprintf(&b, "The command could not run: %s\n", res.Error)
	case res.TimedOut:
		fmt.Fprintf(&b, "The command ran out of time after %d ms and was killed (exit code %d).\n", res.MaxDurationMs, res.ExitCode)
	default:
		fmt.Fprintf(&b, "Exit code: %d\n", res.ExitCode)
	}
	if strings.TrimSpace(out) == "" {
		b.WriteString("No output.")
		return b.String()
	}
	b.WriteString("Output:\n")
	b.WriteString(HeadTail(out, ResultBytes))
	return b.String()
}
