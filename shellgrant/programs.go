package shellgrant

import "strings"

// checkFind: -exec, -execdir, -ok and -okdir run commands; -delete removes
// files and -fprint… write them, which a grant for a search tool should not
// cover.
func checkFind(args []string) string {
	for _, a := range args {
		switch a {
		case "-exec", "-execdir", "-ok", "-okdir":
			return "`find " + a + "` runs a command on what it finds"
		case "-delete", "-fprint", "-fprint0", "-fprintf", "-fls":
			return "`find " + a + "` deletes or writes files"
		}
	}
	return ""
}

// checkTar: options that run programs, and remote archives (host:file), which
// tar reaches through rsh.
func checkTar(args []string) string {
	local := contains(args, "--force-local")
	for i, a := range args {
		switch {
		case longOpt(a, "to-command", "checkpoint-action", "use-compress-program", "info-script",
			"new-volume-script", "rsh-command", "rmt-command"):
			return "`tar " + shorten(a) + "` runs a program"
		case shortOpt(a, "IF") || (i == 0 && !strings.HasPrefix(a, "-") && strings.ContainsAny(a, "IF")):
			return "`tar " + shorten(a) + "`: -I and -F run programs"
		case !local && !strings.HasPrefix(a, "-") && isRemote(a):
			return "`tar " + shorten(a) + "`: a host:file archive is reached through rsh"
		}
	}
	return ""
}

// isRemote reports whether a file name has the host:path form.
func isRemote(s string) bool {
	host, _, ok := strings.Cut(s, ":")
	return ok && host != "" && !strings.Contains(host, "/")
}

// checkRsync: -e/--rsh and --rsync-path name the programs rsync runs.
func checkRsync(args []string) string {
	for _, a := range args {
		if a == "--" {
			break
		}
		if shortOpt(a, "eM") || longOpt(a, "rsh", "rsync-path", "remote-option") {
			return "`rsync " + shorten(a) + "` names a program to run"
		}
	}
	return ""
}

// checkZip: -TT/--unzip-command names the program that tests the archive.
func checkZip(args []string) string {
	for _, a := range args {
		if (strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--") && strings.Contains(a, "TT")) ||
			longOpt(a, "unzip-command") {
			return "`zip " + shorten(a) + "` runs a program to test the archive"
		}
	}
	return ""
}

// checkScp: -S and -D name programs, -o (ProxyCommand), -F and -J bring in ssh
// settings that run them.
func checkScp(args []string) string {
	for _, a := range args {
		if a == "--" {
			break
		}
		if shortOpt(a, "SDoFJ") {
			return "`" + shorten(a) + "` can make scp/sftp run a program (ProxyCommand, -S)"
		}
	}
	return ""
}

// checkWget: --use-askpass runs a program; -e runs wgetrc commands.
func checkWget(args []string) string {
	for _, a := range args {
		if shortOpt(a, "e") || longOpt(a, "execute", "use-askpass", "config") {
			return "`wget " + shorten(a) + "` can run a program"
		}
	}
	return ""
}

// checkMake: --eval runs make code ($(shell …)); VAR=value overrides what the
// recipes run (make CC='rm -rf ~'); a makefile from standard input is code.
func checkMake(args []string) string {
	for i, a := range args {
		switch {
		case shortOpt(a, "E") || longOpt(a, "eval"):
			return "`make " + shorten(a) + "` runs make code given on the command line"
		case !strings.HasPrefix(a, "-") && strings.Contains(a, "="):
			return "`make " + shorten(a) + "` overrides a variable its recipes run"
		case (a == "-f" || longOpt(a, "file", "makefile")) && i+1 < len(args) && isStdin(args[i+1]):
			return "`make -f -` reads its makefile from standard input"
		}
	}
	return ""
}

func isStdin(s string) bool {
	return s == "-" || strings.HasPrefix(s, "/dev/") || strings.HasPrefix(s, "/proc/")
}

// checkGo: -exec, -toolexec, -vettool and an external linker (-ldflags
// -extld=…) run programs; go env -w changes every later go run.
func checkGo(args []string) string {
	for _, a := range args {
		name, _, _ := strings.Cut(strings.TrimLeft(a, "-"), "=")
		switch {
		case strings.HasPrefix(a, "-") && (name == "exec" || name == "toolexec" || name == "vettool"):
			return "`go " + shorten(a) + "` runs a program"
		case strings.Contains(a, "extld"):
			return "`go " + shorten(a) + "` names an external linker to run"
		}
	}
	if len(args) > 1 && args[0] == "env" && contains(args[1:], "-w") {
		return "`go env -w` changes settings (GOFLAGS=-toolexec=…) for every later go run"
	}
	return ""
}

// checkCargo: --config can set a runner or linker for this run.
func checkCargo(args []string) string {
	for _, a := range args {
		if longOpt(a, "config") || strings.HasPrefix(a, "--config") {
			return "`cargo " + shorten(a) + "` can set a runner or linker to run"
		}
	}
	return ""
}

// checkCrontab: anything but listing installs a crontab, which runs later.
func checkCrontab(args []string) string {
	if len(args) == 1 && args[0] == "-l" {
		return ""
	}
	return "`crontab` installs commands that run later"
}

// npmConfig are npm settings, accepted as --name=value on any command, that
// name programs npm runs.
var npmConfig = []string{"script-shell", "shell", "node-options", "git", "editor", "browser",
	"userconfig", "globalconfig", "call", "init-module", "viewer", "onload-script"}

// checkNpm: npm exec/x/explore run any command, init and create run a
// package's program, and some settings name programs. The words are looked
// for anywhere, since option values may come before the subcommand.
func checkNpm(args []string) string {
	if reason := checkNpmConfig("npm", args); reason != "" {
		return reason
	}
	for _, a := range args {
		switch a {
		case "exec", "x", "explore", "create", "init", "innit", "create-init":
			return "`npm " + a + "` runs a package's program or any command"
		}
	}
	return ""
}

// pnpmKnown are pnpm subcommands that only manage packages or run the
// project's own scripts; an unknown one is run as a program (pnpm exec).
var pnpmKnown = map[string]bool{"install": true, "i": true, "add": true, "remove": true, "rm": true,
	"uninstall": true, "update": true, "up": true, "run": true, "test": true, "t": true, "list": true,
	"ls": true, "why": true, "outdated": true, "audit": true, "pack": true, "publish": true,
	"store": true, "prune": true, "fetch": true, "link": true, "unlink": true, "rebuild": true,
	"start": true, "import": true, "licenses": true, "root": true, "bin": true}

// checkPnpm: exec, dlx and create run programs, and so does any subcommand it
// does not know.
func checkPnpm(args []string) string {
	if reason := checkNpmConfig("pnpm", args); reason != "" {
		return reason
	}
	if sub := subcommand(args); sub != "" && !pnpmKnown[sub] {
		return "`pnpm " + sub + "` runs a program (exec, dlx, create, or a binary by name)"
	}
	return ""
}

// yarnKnown are yarn subcommands that only manage packages or run the
// project's own scripts.
var yarnKnown = map[string]bool{"install": true, "add": true, "remove": true, "up": true,
	"upgrade": true, "run": true, "test": true, "list": true, "why": true, "info": true,
	"outdated": true, "audit": true, "npm": true, "pack": true, "publish": true, "version": true,
	"workspaces": true, "cache": true, "build": true, "start": true, "lint": true}

// checkYarn: yarn exec/dlx/node run code, and an unknown subcommand runs a
// binary by name.
func checkYarn(args []string) string {
	if reason := checkNpmConfig("yarn", args); reason != "" {
		return reason
	}
	if sub := subcommand(args); sub != "" && !yarnKnown[sub] {
		return "`yarn " + sub + "` runs a program (exec, dlx, node, or a binary by name)"
	}
	return ""
}

func checkNpmConfig(tool string, args []string) string {
	for _, a := range args {
		if longOpt(a, npmConfig...) || a == "-c" {
			return "`" + tool + " " + shorten(a) + "` names a program it runs"
		}
	}
	return ""
}

// checkEnvRunner: uv run, poetry run, conda run… run any command in their
// environment. The words are looked for anywhere, since option values may
// come before the subcommand.
func checkEnvRunner(args []string) string {
	for _, a := range args {
		switch a {
		case "run", "exec", "x", "shell", "tool", "develop":
			return "`" + a + "` runs any command in the tool's environment"
		}
	}
	return ""
}

// subcommand is the first argument, "" when there is none. An option there is
// no known subcommand, so it asks: option values could hide the real one.
func subcommand(args []string) string {
	if len(args) == 0 || (len(args) == 1 && infoFlags[args[0]]) {
		return ""
	}
	return args[0]
}

// checkFd: fd -x/--exec and -X/--exec-batch run a command on what it finds.
func checkFd(args []string) string {
	for _, a := range args {
		if a == "--" {
			break
		}
		if shortOpt(a, "xX") || longOpt(a, "exec", "exec-batch") {
			return "`fd " + shorten(a) + "` runs a command on what it finds"
		}
	}
	return ""
}

// checkRg: rg --pre runs a preprocessor on every file it searches.
func checkRg(args []string) string {
	for _, a := range args {
		if a == "--" {
			break
		}
		if longOpt(a, "pre") {
			return "`rg " + shorten(a) + "` runs a preprocessor program"
		}
	}
	return ""
}

// checkGh: aliases can be shell commands, extensions are programs, and
// configuration names the editor, pager and browser gh runs.
func checkGh(args []string) string {
	switch sub := firstPlain(args); {
	case sub == "alias" || sub == "extension" || sub == "ext":
		return "`gh " + sub + "` installs or runs commands (aliases with !, extensions)"
	case sub == "config" && contains(args, "set"):
		return "`gh config set` can name the editor, pager or browser gh runs"
	}
	return ""
}

// checkJobs: jobs -x runs a command.
func checkJobs(args []string) string {
	for _, a := range args {
		if shortOpt(a, "x") {
			return "`jobs -x` runs a command"
		}
	}
	return ""
}

// firstPlain is the first argument that is not an option, or "".
func firstPlain(args []string) string {
	if i := firstOperand(args); i >= 0 {
		return args[i]
	}
	return ""
}
