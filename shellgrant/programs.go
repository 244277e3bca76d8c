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

// checkWget: --use-askpass runs a program; -e and --config run wgetrc
// commands (which can name programs too).
func checkWget(args []string) string {
	for _, a := range args {
		if shortOpt(a, "e") || longOpt(a, "execute", "use-askpass", "config") {
			return "`wget " + shorten(a) + "` can run a program"
		}
	}
	return ""
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
