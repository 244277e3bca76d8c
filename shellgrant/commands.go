package shellgrant

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// A rule decides one simple command of a program: its base (the program's
// name, or a read-only form such as "git status") and why it always asks ("":
// a grant for the base covers it).
type rule func(name string, args []*syntax.Word) (base, reason string)

// rules holds every program and builtin with a rule, by name or family name.
var rules = map[string]rule{}

func addRule(r rule, names ...string) {
	for _, n := range names {
		n = strings.ToLower(n)
		if _, dup := rules[n]; dup {
			panic("shellgrant: two rules for " + n)
		}
		rules[n] = r
	}
}

// never is a rule for programs no grant covers.
func never(reason string) rule {
	return func(name string, _ []*syntax.Word) (string, string) { return name, "`" + name + "` " + reason }
}

// checked is a rule for a program whose base is its name and whose arguments
// decide whether a grant covers it.
func checked(check func([]*syntax.Word) string) rule {
	return func(name string, args []*syntax.Word) (string, string) { return name, check(args) }
}

// static wraps a check that needs the text of every argument: an argument that
// is not plain text ($opts, a glob) could carry any option, so it asks.
func static(check func(args []string) string) rule {
	return func(name string, words []*syntax.Word) (string, string) {
		args, ok := staticArgs(words)
		if !ok {
			return name, "an argument to `" + name + "` is not plain text: a $var or glob could carry options that run commands or write files"
		}
		return name, check(args)
	}
}

func init() {
	addRule(never("runs code a grant cannot see"),
		"eval", "exec", "source", ".", "builtin", "trap", "enable", "alias", "fc", "bind", "complete",
		"compgen", "compopt")
	addRule(never("changes privileges"),
		"sudo", "su", "doas", "pkexec", "runuser", "chroot", "setpriv", "capsh", "sudoedit", "machinectl")
	addRule(never("gives root on this machine: a container can mount / and run anything"),
		"docker", "podman", "nerdctl", "docker-compose")
	addRule(never("is a shell: it runs the code or script it is given, or reads it from standard input"),
		"sh", "bash", "zsh", "dash", "ksh", "mksh", "fish", "csh", "tcsh", "ash", "yash", "rbash", "elvish",
		"nu", "xonsh", "bash-static", "mksh-static", "posh", "oksh", "loksh", "osh", "ysh", "rc", "es", "sash")
	addRule(never("is an interactive interpreter that reads code from standard input"),
		"irb", "ipython", "ghci", "pry")
	addRule(never("runs other programs: a grant cannot see which"),
		"xargs", "env", "nohup", "timeout", "nice", "ionice", "stdbuf", "time", "setsid", "flock", "watch",
		"parallel", "script", "unbuffer", "strace", "ltrace", "gdb", "lldb", "ssh", "sftp", "chrt",
		"taskset", "numactl", "unshare", "nsenter", "firejail", "bwrap", "systemd-run", "busybox", "toybox",
		"valgrind", "fakeroot", "proot", "faketime", "expect", "tmux", "screen", "at", "batch",
		"run-parts", "entr", "sg", "newgrp", "dbus-launch", "xvfb-run", "caffeinate", "hyperfine", "perf",
		"ifne", "pee", "chronic", "mispipe", "lckdo", "start-stop-daemon", "daemonize", "direnv", "npx",
		"pnpx", "bunx", "uvx", "pipx", "open", "xdg-open", "gio", "openvt", "nix-shell", "ansible",
		"ansible-playbook", "vagrant", "nc", "ncat", "netcat", "socat", "sshpass", "launchctl", "code",
		"ldd", "cpio")
	addRule(never("loads code or runs programs named in its options or input (engines, filters, delegates, agents)"),
		"openssl", "gpg", "gpg2", "ssh-agent", "ssh-add", "ssh-keygen", "exiftool", "patch", "pandoc",
		"convert", "magick", "identify", "mogrify", "composite", "montage", "gm", "dc", "m4")
	addRule(never("is an editor or pager that runs shell commands (:!cmd, less '+!cmd', ed reads !cmd from standard input)"),
		"less", "more", "most", "pg", "man", "info", "vi", "vim", "nvim", "view", "vimdiff", "ex", "ed",
		"emacs", "emacsclient", "nano", "pager", "editor", "sensible-pager", "sensible-editor", "zless",
		"zmore", "bzless", "bzmore", "xzless", "xzmore", "w3m", "lynx", "mutt", "ranger", "nnn", "mc")
	addRule(never("is a database shell that runs programs (\\!, .shell, edit(), load_extension)"),
		"sqlite3", "psql", "mysql", "mariadb")
	addRule(never("reads commands from standard input, and runs a shell for !cmd or ~!cmd"),
		"ftp", "lftp", "tftp", "ncftp", "telnet", "smbclient", "mail", "mailx", "s-nail", "duckdb")
	addRule(never("is an agent or automation tool that runs commands or types keystrokes"),
		"claude", "codex", "gemini", "aider", "opencode", "goose", "cursor-agent", "shortcuts",
		"automator", "xdotool", "ydotool", "wtype")
	addRule(never("opens an editor or browser, which can run the folder's tasks or a program named in a flag (--renderer-cmd-prefix)"),
		"cursor", "subl", "zed", "idea", "pycharm", "webstorm", "goland", "chrome", "google-chrome",
		"chromium", "chromium-browser", "firefox", "brave", "brave-browser", "msedge")
	addRule(never("reads and changes the keychain (passwords, trusted certificates)"), "security", "secret-tool")
	addRule(never("talks to the session's services over D-Bus, which run programs outside Wisp's confinement (systemd starts units, the keyring hands out secrets)"),
		"busctl", "dbus-send", "gdbus", "qdbus", "qdbus6", "dbus-monitor", "flatpak-spawn", "host-spawn", "distrobox-host-exec")
	addRule(never("with quotes or a backslash still runs the builtin, which sets the variables it is given (PATH=…): write it plainly"),
		"export", "declare", "typeset", "local", "readonly", "let")
	for name, r := range runners {
		addRule(r.rule, name)
	}
	for name, why := range alwaysStateful {
		addRule(never(why), name)
	}
	addRule(static(checkFind), "find")
	addRule(static(checkTar), "tar", "gtar", "bsdtar")
	addRule(static(checkRsync), "rsync")
	addRule(static(checkZip), "zip")
	addRule(static(checkScp), "scp")
	addRule(static(checkWget), "wget")
	addRule(static(checkCurl), "curl")
	addRule(static(checkCrontab), "crontab")
	addRule(sedRule, "sed", "gsed")
	addRule(static(checkAwk), "awk", "gawk", "mawk", "nawk")
	addRule(static(checkFd), "fd", "fdfind")
	addRule(static(checkRg), "rg")
	addRule(static(checkGh), "gh")
	addRule(static(checkJobs), "jobs")
	addRule(static(checkSort), "sort")
	addRule(static(checkSplit), "split", "csplit")
	addRule(static(checkUniq), "uniq")
	addRule(static(checkXxd), "xxd")
	for name := range writeOptions {
		addRule(static(writeOptionRule(name)), name)
	}
	addRule(static(checkApt), "apt", "apt-get", "apt-cache", "apt-config")
	addRule(static(checkPlutil), "plutil")
	addRule(static(checkSet), "set")
	addRule(static(checkShopt), "shopt")
	addRule(commandRule, "command")
	addRule(checked(checkHash), "hash")
	addRule(checked(checkPrintf), "printf")
	addRule(checked(checkTest), "test")
	addRule(checked(checkBracket), "[")
	addRule(checked(names("read", "a:d:i:n:N:p:t:u:ers", "a")), "read")
	addRule(checked(names("mapfile", "d:n:O:s:u:C:c:t", "")), "mapfile")
	addRule(checked(names("readarray", "d:n:O:s:u:C:c:t", "")), "readarray")
	addRule(checked(names("unset", "fnv", "")), "unset")
	addRule(checked(names("wait", "fnp:", "p")), "wait")
}

// command applies the rule for one command name to its arguments and returns
// the base to record.
func (an *analyzer) command(name string, args []*syntax.Word) string {
	r, ok := lookup(rules, name)
	if !ok {
		return name
	}
	base, reason := r(name, args)
	if reason != "" {
		an.ask("%s", reason)
	}
	return base
}

// lookup finds name, or its family without a version suffix
// (python3.12 → python, lua5.4 → lua, gcc-12 → gcc), in any case: macOS
// disks ignore case, so SUDO and Python3 run sudo and python3 there.
func lookup[V any](m map[string]V, name string) (V, bool) {
	name = strings.ToLower(name)
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

// commandRule: command -v and -V only print what a name is. Anything else runs
// the command, bypassing functions (command -p even bypasses PATH).
func commandRule(name string, words []*syntax.Word) (string, string) {
	args, ok := staticArgs(words)
	if ok && len(args) >= 2 && (args[0] == "-v" || args[0] == "-V") {
		rest := args[1:]
		if rest[0] == "--" {
			rest = rest[1:]
		}
		if firstOption(rest) < 0 {
			return name + " " + args[0], ""
		}
	}
	return name, "`command` runs the command it is given (only `command -v NAME` and `-V` are covered)"
}

// firstOption is the index of the first argument that is an option, or -1.
func firstOption(args []string) int {
	for i, a := range args {
		if strings.HasPrefix(a, "-") {
			return i
		}
	}
	return -1
}
