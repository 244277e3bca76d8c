// Package loginpath finds the PATH the user's login shell sets up, so that the
// programs Wisp starts (MCP servers, the terminal's runs) find what the user's own
// terminal finds (npx, uvx, an nvm or Homebrew Node) even when Wisp was started from
// the desktop's menu or at login, with the session's bare PATH.
//
// It asks once, bounded in time (3 s), and safely: the shell is $SHELL when
// /etc/shells lists it (else the passwd entry's, else /bin/sh), run as
// `<shell> -l -i -c <fixed script>` with no user input in the command, stdin from
// /dev/null, no controlling terminal, Wisp's secrets left out of its environment,
// its output bounded and the PATH read between random markers (a login shell prints
// banners, a motd, a fortune), in a process group of its own that is killed whole
// once the answer is in. Whatever fails falls back to Wisp's own PATH and says why.
//
// It is a leaf: it imports nothing of Wisp.
package loginpath

import (
	"cmp"
	"context"
	"fmt"
	"log/slog"
	"os"
	"time"
)

// Result is the PATH to give the programs Wisp starts.
type Result struct {
	// PATH is the login shell's entries, then those of Wisp's own PATH it lacks;
	// Wisp's own PATH when the login shell could not tell.
	PATH string
	// From says where PATH came from: "login shell /bin/zsh", or Inherited.
	From string
	// Why says why the login shell's PATH is not used (From is Inherited).
	Why string
}

// Inherited is Result.From when PATH is Wisp's own.
const Inherited = "inherited"

// GuardVar is set in the login shell's environment: a Wisp started by the shell's
// start-up files (say, from ~/.profile) does not ask a login shell in its turn.
const GuardVar = "WISP_READING_LOGIN_PATH"

// Bounds on the login shell.
const (
	DefaultTimeout   = 3 * time.Second
	DefaultMaxOutput = 64 << 10
	maxPATH          = 32 << 10 // bytes of the login shell's PATH
	maxEntries       = 512
)

// Options tune Resolve; zero values take the defaults.
type Options struct {
	// Getenv reads $SHELL, $PATH (Wisp's own), $HOME and GuardVar (os.Getenv).
	Getenv func(string) string
	// Env is the login shell's environment before Strip (os.Environ()).
	Env []string
	// Strip are variables the login shell never sees: Wisp's tokens and keys.
	Strip []string
	// ShellsFile lists the shells $SHELL may name (/etc/shells); tests give their own.
	ShellsFile string
	// PasswdFile holds the user's entry, whose shell is used when $SHELL is not
	// listed (/etc/passwd).
	PasswdFile string
	// Timeout bounds the login shell from its start to its answer (3 s).
	Timeout time.Duration
	// MaxOutput bounds what the shell may print before its answer (64 KiB).
	MaxOutput int
	Logger    *slog.Logger
}

func (o *Options) setDefaults() {
	if o.Getenv == nil {
		o.Getenv = os.Getenv
	}
	if o.Env == nil {
		o.Env = os.Environ()
	}
	o.ShellsFile = cmp.Or(o.ShellsFile, "/etc/shells")
	o.PasswdFile = cmp.Or(o.PasswdFile, "/etc/passwd")
	o.Timeout = cmp.Or(o.Timeout, DefaultTimeout)
	o.MaxOutput = cmp.Or(o.MaxOutput, DefaultMaxOutput)
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
}

// Resolve asks the user's login shell for its PATH with the default options.
func Resolve(ctx context.Context) Result { return Options{}.Resolve(ctx) }

// Resolve asks the user's login shell for its PATH, within o.Timeout or until ctx
// ends, and merges Wisp's own PATH after it. It never fails: when the shell cannot
// tell, the result is Wisp's own PATH with the reason.
func (o Options) Resolve(ctx context.Context) Result {
	o.setDefaults()
	r := o.resolve(ctx)
	if r.From == Inherited {
		o.Logger.Warn("programs get Wisp's own PATH, not the login shell's", "why", r.Why, "PATH", r.PATH)
	} else {
		o.Logger.Info("programs get the login shell's PATH", "from", r.From, "PATH", r.PATH)
	}
	return r
}

func (o *Options) resolve(ctx context.Context) Result {
	current := o.Getenv("PATH")
	inherited := func(format string, args ...any) Result {
		return Result{PATH: current, From: Inherited, Why: fmt.Sprintf(format, args...)}
	}
	if o.Getenv(GuardVar) != "" {
		return inherited("Wisp was started by the login shell another Wisp asked for its PATH")
	}
	sh, notes := o.chooseShell()
	for _, n := range notes {
		o.Logger.Info("login shell not used", "why", n)
	}
	if sh == "" {
		return inherited("no login shell to ask: %s", notes[len(notes)-1])
	}
	how, err := kindOf(sh)
	if err != nil {
		return inherited("%v", err)
	}
	line, err := o.ask(ctx, sh, how)
	if err != nil {
		return inherited("%s %s: %v", how.from, sh, err)
	}
	login, err := parse(line)
	if err != nil {
		return inherited("%s %s: %v", how.from, sh, err)
	}
	return Result{PATH: merge(login, current), From: how.from + " " + sh}
}
