package shellgrant

import "strings"

// gitGlobalFlags are the options before a git subcommand that change nothing
// a grant cares about. -C takes a directory.
var gitGlobalFlags = map[string]bool{
	"--no-pager": true, "-P": true, "-p": true, "--paginate": true, "--version": true,
	"--help": true, "-h": true, "--no-replace-objects": true, "--literal-pathspecs": true,
	"--glob-pathspecs": true, "--noglob-pathspecs": true, "--icase-pathspecs": true,
	"--no-optional-locks": true, "--no-advice": true,
}

// gitNever are subcommands that run programs or shell code given to them.
var gitNever = map[string]string{
	"filter-branch": "runs shell filters", "difftool": "runs a diff tool (-x, --extcmd)",
	"mergetool": "runs a merge tool", "send-email": "runs an SMTP program or hooks",
	"instaweb": "starts a web server", "daemon": "serves repositories",
	"upload-pack": "is a transport program", "receive-pack": "is a transport program",
	"upload-archive": "is a transport program", "hook": "runs hooks", "credential": "runs credential helpers",
	"web--browse": "runs a browser", "p4": "runs p4", "svn": "runs svn", "cvsimport": "runs cvs",
	"cvsserver": "serves cvs", "archimport": "runs arch", "shell": "is a login shell",
	"remote-ext": "runs a command as a transport", "remote-fd": "is a transport",
	"fsmonitor--daemon": "starts a daemon",
}

// gitOptions are the options of one subcommand that run programs.
type gitOptions struct {
	long  []string
	short string
}

var gitSubOptions = map[string]gitOptions{
	"rebase":      {long: []string{"exec", "strategy"}, short: "xs"},
	"merge":       {long: []string{"strategy"}, short: "s"},
	"pull":        {long: []string{"strategy", "upload-pack"}, short: "s"},
	"cherry-pick": {long: []string{"strategy"}},
	"revert":      {long: []string{"strategy"}},
	"fetch":       {long: []string{"upload-pack"}},
	"ls-remote":   {long: []string{"upload-pack"}},
	"clone":       {long: []string{"upload-pack", "template", "config"}, short: "uc"},
	"init":        {long: []string{"template"}},
	"push":        {long: []string{"receive-pack", "exec"}},
	"archive":     {long: []string{"exec", "remote"}},
	"grep":        {long: []string{"open-files-in-pager"}, short: "O"},
}

// checkGit reads git's global options, then its subcommand.
func checkGit(args []string) string {
	i := 0
	for ; i < len(args) && strings.HasPrefix(args[i], "-"); i++ {
		a := args[i]
		switch {
		case a == "-C":
			i++
		case gitGlobalFlags[a]:
		case a == "-c" || strings.HasPrefix(a, "-c") || longOpt(a, "config-env"):
			return "`git " + shorten(a) + "` sets configuration for this run (core.pager, alias.x='!cmd', core.sshCommand)"
		case longOpt(a, "exec-path"):
			return "`git --exec-path` picks the directory git runs its programs from"
		case longOpt(a, "git-dir", "work-tree", "bare"):
			return "`git " + shorten(a) + "` points git at another repository's config and hooks"
		default:
			return "`git " + shorten(a) + "`: a global option this package does not know"
		}
	}
	if i >= len(args) {
		return ""
	}
	return checkGitSub(args[i], args[i+1:])
}

func checkGitSub(sub string, args []string) string {
	if reason, ok := gitNever[sub]; ok || strings.HasPrefix(sub, "credential-") {
		return "`git " + sub + "` " + reason
	}
	for _, a := range args {
		if strings.HasPrefix(a, "ext::") || strings.HasPrefix(a, "fd::") {
			return "`git " + sub + " " + shorten(a) + "`: the ext:: transport runs a command"
		}
	}
	switch {
	case sub == "config":
		return checkGitConfig(args)
	case sub == "submodule" && contains(args, "foreach"):
		return "`git submodule foreach` runs a shell command in every submodule"
	case sub == "bisect" && contains(args, "run"):
		return "`git bisect run` runs a command"
	}
	opts := gitSubOptions[sub]
	for _, a := range args {
		if a == "--" {
			break
		}
		if longOpt(a, opts.long...) || shortOpt(a, opts.short) {
			return "`git " + sub + " " + shorten(a) + "` runs a program or loads one"
		}
	}
	return ""
}

// checkGitConfig allows reading configuration only: writing it can set
// core.pager, core.fsmonitor or alias.x='!cmd', which later git runs execute.
func checkGitConfig(args []string) string {
	for i, a := range args {
		switch a {
		case "--get", "--get-all", "--get-regexp", "--get-urlmatch", "--get-color", "--get-colorbool", "--list", "-l":
			return ""
		case "get", "list":
			if firstOperand(args) == i {
				return ""
			}
		}
	}
	return "`git config` can write settings that make later git runs execute commands (core.pager, alias.x='!cmd')"
}

// firstOperand is the index of the first argument that is not an option.
func firstOperand(args []string) int {
	for i, a := range args {
		if !strings.HasPrefix(a, "-") {
			return i
		}
	}
	return -1
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
