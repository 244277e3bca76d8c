// Package shell is the agent's RUN_SHELL action (docs/approvals.md): the model asks
// for a command, the user allows it (unless a grant covers every command in it), and
// it runs in a real PTY through the terminal manager, its output reaching the chat as
// the action's progressive callback and the model as plain text, head and tail.
package shell

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/wispapp/wisp/app/approval"
	"github.com/wispapp/wisp/runtime"
	"github.com/wispapp/wisp/shellgrant"
	"github.com/wispapp/wisp/terminal"
)

// Name is the action's name.
const Name = "RUN_SHELL"

// Limits of the arguments and of what goes back to the model.
const (
	MaxCommandBytes = 8 << 10
	MaxReasonRunes  = 300
	// ResultBytes is about how much output the model gets back: head and tail.
	ResultBytes = 16 << 10
	// progressLines is how many of the last output lines the chat shows while it runs.
	progressLines = 12
	progressWidth = 200
)

// Options are what the action needs.
type Options struct {
	// Approvals asks the user (approval.Guard).
	Approvals *approval.Service
	// Terminal is the shell runner now (nil while shell access is off).
	Terminal func() *terminal.Manager
	Logger   *slog.Logger
	// Tick is how often the chat's view of a running command is refreshed (default 250 ms).
	Tick time.Duration
}

// Action returns the RUN_SHELL action.
func Action(o Options) runtime.Action {
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
	if o.Tick <= 0 {
		o.Tick = 250 * time.Millisecond
	}
	h := &handler{o: o}
	return approval.Guard(o.Approvals, approval.Guarded[args]{Action: runtime.Action{
		Name: Name,
		Description: "Run a shell command on the user's computer (as $SHELL -c) and get its exit code and output. " +
			"The user is asked first unless they allowed every command in it for good. Use it for things the user " +
			"asked for; prefer read-only commands; one command line per call.",
		Parameters: json.RawMessage(`{"type":"object","properties":{` +
			`"command":{"type":"string","description":"The command line to run"},` +
			`"cwd":{"type":"string","description":"Absolute working directory (default: the terminal's)"},` +
			`"reason":{"type":"string","description":"One line telling the user why"}},` +
			`"required":["command","reason"]}`),
	}, Check: h.check, Run: h.start})
}

type args struct {
	Command string `json:"command"`
	Cwd     string `json:"cwd"`
	Reason  string `json:"reason"`
}

type handler struct{ o Options }

// check reads the call: the command, its folder, and what the user is asked.
func (h *handler) check(ctx context.Context, call runtime.Call) (args, approval.Request, error) {
	a, err := parseArgs(call.Args)
	if err != nil {
		return a, approval.Request{}, err
	}
	term := h.o.Terminal()
	if term == nil {
		return a, approval.Request{}, errors.New("shell access is turned off; the user can turn it on in Settings")
	}
	if a.Cwd == "" {
		a.Cwd = term.Dir()
	}
	an := shellgrant.Analyze(ctx, a.Command)
	if why := notBashLike(term.Shell()); why != "" && len(an.AlwaysAsk) == 0 {
		an.AlwaysAsk = []string{why}
	}
	return a, approval.Request{Detail: approval.Command{Command: a.Command, Cwd: a.Cwd, Reason: a.Reason},
		Bases: an.Bases, AlwaysAsk: an.AlwaysAsk}, nil
}

// start runs the allowed command in the terminal shell access runs in now.
func (h *handler) start(ctx context.Context, call runtime.Call, a args) (string, error) {
	term := h.o.Terminal()
	if term == nil {
		return "", errors.New("shell access was turned off before the command could run")
	}
	return h.run(ctx, call, term, a)
}

// bashLike are the shells whose reading of a command line is Bash's: grants are
// decided by a Bash parser checked against Bash itself (shellgrant), so they hold
// only there. dash and ash read some lines otherwise (`ls &> f` is `ls &` then
// `> f`), so an `sh` holds only where it is Bash under that name.
var bashLike = map[string]bool{"bash": true, "rbash": true}

// notBashLike says why grants cannot cover commands run by shell, or "" when they can.
func notBashLike(shell string) string {
	base := filepath.Base(shell)
	if real, err := filepath.EvalSymlinks(shell); err == nil && !bashLike[base] {
		base = filepath.Base(real) // /bin/sh → bash on some systems, dash on Debian's
	}
	if bashLike[base] {
		return ""
	}
	return fmt.Sprintf("commands run in %s, which reads a command line differently from Bash, the only shell grants are checked for", base)
}

func parseArgs(raw json.RawMessage) (args, error) {
	var a args
	if err := json.Unmarshal(raw, &a); err != nil {
		return a, errors.New("arguments must be {command, cwd?, reason}")
	}
	a.Command, a.Reason, a.Cwd = strings.TrimSpace(a.Command), strings.TrimSpace(a.Reason), strings.TrimSpace(a.Cwd)
	switch {
	case a.Command == "":
		return a, errors.New("command is required")
	case len(a.Command) > MaxCommandBytes:
		return a, fmt.Errorf("command is longer than %d bytes", MaxCommandBytes)
	case strings.ContainsRune(a.Command, 0) || !utf8.ValidString(a.Command):
		return a, errors.New("command must be text")
	case utf8.RuneCountInString(a.Reason) > MaxReasonRunes:
		a.Reason = string([]rune(a.Reason)[:MaxReasonRunes]) + "…"
	}
	if a.Cwd != "" {
		if !filepath.IsAbs(a.Cwd) {
			return a, fmt.Errorf("cwd %q must be an absolute path", a.Cwd)
		}
		if st, err := os.Stat(a.Cwd); err != nil || !st.IsDir() {
			return a, fmt.Errorf("cwd %s is not a folder", a.Cwd)
		}
		a.Cwd = filepath.Clean(a.Cwd)
	}
	return a, nil
}
