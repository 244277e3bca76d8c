package shellgrant

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// never lists the commands no grant covers, with the reason shown.
var never = map[string]string{}

func init() {
	add := func(reason string, names ...string) {
		for _, n := range names {
			never[n] = reason
		}
	}
	add("runs code a grant cannot see",
		"eval", "exec", "source", ".", "command", "builtin", "trap", "enable", "alias",
		"fc", "bind", "complete", "compgen", "compopt")
	add("changes privileges",
		"sudo", "su", "doas", "pkexec", "runuser", "chroot", "setpriv", "capsh", "sudoedit",
		"machinectl")
	add("gives root on this machine: a container can mount / and run anything",
		"docker", "podman")
	add("is a shell: it runs the code or script it is given, or reads it from standard input",
		"sh", "bash", "zsh", "dash", "ksh", "mksh", "fish", "csh", "tcsh", "ash", "yash",
		"rbash", "pwsh", "elvish", "nu", "xonsh")
	add("is an interactive interpreter that reads code from standard input",
		"irb", "ipython", "jshell", "ghci", "pry")
	add("runs other programs: a grant cannot see which",
		"xargs", "env", "nohup", "timeout", "nice", "ionice", "stdbuf", "time", "setsid",
		"flock", "watch", "parallel", "script", "unbuffer", "strace", "ltrace", "gdb", "lldb",
		"ssh", "chrt", "taskset", "numactl", "unshare", "nsenter", "firejail", "bwrap",
		"systemd-run", "busybox", "toybox", "valgrind", "fakeroot", "proot", "faketime",
		"expect", "tmux", "screen", "at", "batch", "run-parts", "entr", "sg", "newgrp",
		"dbus-launch", "xvfb-run", "caffeinate", "hyperfine", "perf", "ifne", "pee",
		"chronic", "mispipe", "lckdo", "start-stop-daemon", "daemonize", "direnv",
		"npx", "pnpx", "bunx", "uvx", "pipx", "open", "xdg-open", "gio", "openvt",
		"nix-shell", "ansible")
	add("is an editor or pager that runs shell commands (:!cmd, less '+!cmd', ed reads !cmd from standard input)",
		"less", "more", "most", "pg", "man", "vi", "vim", "nvim", "view", "vimdiff",
		"ex", "ed", "emacs", "emacsclient", "nano")
	add("is a database shell that runs programs (\\!, .shell, edit(), load_extension)",
		"sqlite3", "psql", "mysql", "mariadb")
}

// checks holds the programs whose arguments decide whether a grant covers
// them; each returns the reason to ask, or "".
var checks map[string]func(args []*syntax.Word) string

func init() {
	checks = map[string]func(args []*syntax.Word) string{
		"find": static("find", checkFind), "tar": static("tar", checkTar),
		"rsync": static("rsync", checkRsync), "zip": static("zip", checkZip),
		"scp": static("scp", checkScp), "sftp": static("sftp", checkScp),
		"wget": static("wget", checkWget), "make": static("make", checkMake),
		"gmake": static("make", checkMake), "go": static("go", checkGo),
		"cargo": static("cargo", checkCargo), "crontab": static("crontab", checkCrontab),
		"git": static("git", checkGit), "sed": static("sed", checkSed), "gsed": static("sed", checkSed),
		"npm": static("npm", checkNpm), "pnpm": static("pnpm", checkPnpm), "yarn": static("yarn", checkYarn),
		"deno": static("deno", checkDeno), "bun": static("bun", checkBun),
		"fd": static("fd", checkFd), "fdfind": static("fdfind", checkFd), "rg": static("rg", checkRg),
		"gh": static("gh", checkGh), "jobs": static("jobs", checkJobs),
		"hash": checkHash, "printf": checkPrintf, "test": checkTest, "[": checkBracket,
		"read": names("read", "a:d:i:n:N:p:t:u:ers", "a"), "mapfile": names("mapfile", "d:n:O:s:u:C:c:t", ""),
		"readarray": names("readarray", "d:n:O:s:u:C:c:t", ""), "getopts": checkGetopts,
		"unset": names("unset", "fnv", ""), "wait": names("wait", "fnp:", "p"),
	}
	for _, n := range []string{"awk", "gawk", "mawk", "nawk"} {
		checks[n] = static(n, checkAwk)
	}
	for _, n := range []string{"poetry", "pipenv", "pdm", "hatch", "rye", "conda", "mamba", "micromamba", "pixi", "uv",
		"bundle", "bundler", "rbenv", "pyenv", "nodenv", "goenv", "mise", "asdf", "rtx", "devbox", "nix",
		"opam", "stack", "cabal", "dune"} {
		checks[n] = static(n, checkEnvRunner)
	}
}

// static wraps a check that needs the text of every argument: an argument that
// is not plain text ($opts, a glob) could carry any option, so it asks.
func static(name string, check func(args []string) string) func([]*syntax.Word) string {
	return func(words []*syntax.Word) string {
		args, ok := staticArgs(words)
		if !ok {
			return "an argument to `" + name + "` is not plain text: a $var or glob could carry options that run commands"
		}
		return check(args)
	}
}

// command applies the rules for one command name to its arguments.
func (an *analyzer) command(name string, args []*syntax.Word) {
	if reason, ok := lookup(never, name); ok {
		an.ask("`%s` %s", name, reason)
		return
	}
	if check, ok := lookup(checks, name); ok {
		if reason := check(args); reason != "" {
			an.ask("%s", reason)
		}
		return
	}
	if spec, ok := lookup(interpreters, name); ok {
		if reason := spec.check(name, args); reason != "" {
			an.ask("%s", reason)
		}
	}
}

// lookup finds name, or its family without a version suffix
// (python3.12 → python, lua5.4 → lua, bash5 → bash).
func lookup[V any](m map[string]V, name string) (V, bool) {
	if v, ok := m[name]; ok {
		return v, true
	}
	family := strings.TrimRight(name, "0123456789.")
	family = strings.TrimSuffix(family, "-")
	v, ok := m[family]
	if !ok || family == "" {
		var zero V
		return zero, false
	}
	return v, true
}
