package shellgrant

import "strings"

// A grant for git covers one read-only subcommand ("git status"), never git as
// a whole: its other subcommands write, and many run programs (rebase --exec,
// submodule foreach, aliases, transports, hooks).

// gitGlobalFlags are the options before a git subcommand that change nothing a
// grant cares about.
var gitGlobalFlags = map[string]bool{
	"--no-pager": true, "-P": true, "-p": true, "--paginate": true, "--no-replace-objects": true,
	"--literal-pathspecs": true, "--glob-pathspecs": true, "--noglob-pathspecs": true,
	"--icase-pathspecs": true, "--no-optional-locks": true, "--no-advice": true,
}

// gitGlobal reads git's options before the subcommand.
func gitGlobal(args []string) (int, string) {
	i := 0
	for ; i < len(args) && strings.HasPrefix(args[i], "-"); i++ {
		a := args[i]
		switch {
		case gitGlobalFlags[a]:
		case a == "-C":
			return i, "`git -C` runs git in another folder, with that repository's configuration and hooks"
		case strings.HasPrefix(a, "-c") || longOpt(a, "config-env"):
			return i, "`git " + shorten(a) + "` sets configuration for this run (core.pager, alias.x='!cmd', core.sshCommand)"
		case longOpt(a, "exec-path"):
			return i, "`git --exec-path` picks the folder git runs its programs from"
		case longOpt(a, "git-dir", "work-tree", "bare", "namespace"):
			return i, "`git " + shorten(a) + "` points git at another repository's configuration and hooks"
		default:
			return i, "`git " + shorten(a) + "`: a global option a grant does not cover"
		}
	}
	return i, ""
}

// gitSubs are the read-only subcommands, each a base of its own.
var gitSubs = map[string]subCheck{
	"status": gitArgs, "log": gitArgs, "show": gitArgs, "diff": gitArgs, "whatchanged": gitArgs,
	"shortlog": gitArgs, "blame": gitArgs, "annotate": gitArgs, "rev-parse": gitArgs,
	"rev-list": gitArgs, "ls-files": gitArgs, "ls-tree": gitArgs, "cat-file": gitArgs,
	"describe": gitArgs, "merge-base": gitArgs, "name-rev": gitArgs, "for-each-ref": gitArgs,
	"show-ref": gitArgs, "count-objects": gitArgs, "check-ignore": gitArgs, "check-attr": gitArgs,
	"version": gitArgs, "grep": gitGrep, "branch": gitBranch, "tag": gitTag, "remote": gitRemote,
	"config": gitConfig, "reflog": gitReflog,
}

// gitArgs: --output writes a file (git log --output=~/.bashrc).
func gitArgs(args []string) string {
	for _, a := range args {
		if a == "--" {
			break
		}
		if longOpt(a, "output") {
			return "`git … " + shorten(a) + "` writes a file"
		}
	}
	return ""
}

// gitGrep: -O / --open-files-in-pager runs a program on the matches.
func gitGrep(args []string) string {
	for _, a := range args {
		if a == "--" {
			break
		}
		if shortOpt(a, "O") || longOpt(a, "open-files-in-pager", "ext-grep") {
			return "`git grep " + shorten(a) + "` runs a program on the files it finds"
		}
	}
	return ""
}

// gitListing describes a listing subcommand (branch, tag): the options that
// only filter or format, those that take a value, and the bundle letters.
type gitListing struct {
	sub     string
	flags   map[string]bool
	values  map[string]bool
	letters string
}

// check allows a listing: operands (patterns) only with -l/--list, since
// without it `git branch NAME` and `git tag NAME` create one.
func (g gitListing) check(args []string) string {
	list, operands := false, false
	for i := 0; i < len(args); i++ {
		a := args[i]
		name, _, glued := strings.Cut(a, "=")
		switch {
		case a == "-l" || a == "--list":
			list = true
		case g.values[name]:
			if !glued && i+1 < len(args) {
				i++
			}
		case g.flags[name]:
		case len(a) > 1 && a[0] == '-' && a[1] != '-' && strings.Trim(a[1:], g.letters) == "":
			list = list || strings.Contains(a, "l")
		case !strings.HasPrefix(a, "-"):
			operands = true
		default:
			return "`git " + g.sub + " " + shorten(a) + "`: only listing options are covered (it creates, deletes or renames otherwise)"
		}
	}
	if operands && !list {
		return "`git " + g.sub + " NAME` creates one: a grant covers listing only (with --list for patterns)"
	}
	return ""
}

var gitFilters = map[string]bool{"--contains": true, "--no-contains": true, "--merged": true,
	"--no-merged": true, "--points-at": true, "--sort": true, "--format": true}

var gitBranch = gitListing{sub: "branch", values: gitFilters, letters: "arlvi", flags: map[string]bool{
	"--all": true, "--remotes": true, "--verbose": true, "--show-current": true, "--ignore-case": true,
	"--color": true, "--no-color": true, "--column": true, "--no-column": true, "--abbrev": true,
	"--no-abbrev": true, "--omit-empty": true,
}}.check

var gitTag = gitListing{sub: "tag", values: gitFilters, letters: "lni0123456789", flags: map[string]bool{
	"--ignore-case": true, "--color": true, "--column": true, "--no-column": true, "--omit-empty": true,
}}.check

// gitRemote: listing remotes and reading a URL.
func gitRemote(args []string) string {
	switch {
	case len(args) == 0, len(args) == 1 && (args[0] == "-v" || args[0] == "--verbose"):
		return ""
	case len(args) >= 2 && args[0] == "get-url":
		for _, a := range args[1:] {
			if strings.HasPrefix(a, "-") && a != "--push" && a != "--all" {
				return "`git remote get-url " + shorten(a) + "`: an option a grant does not cover"
			}
		}
		return ""
	}
	return "`git remote " + shorten(strings.Join(args, " ")) + "`: a grant covers listing remotes and get-url only"
}

// gitReflog: showing it; expire, delete and drop remove entries.
func gitReflog(args []string) string {
	if i := firstOperand(args); i >= 0 {
		switch args[i] {
		case "expire", "delete", "drop":
			return "`git reflog " + args[i] + "` removes entries"
		}
	}
	return gitArgs(args)
}

// gitConfigRead are the options of git config that read, or say where from.
var gitConfigRead = map[string]bool{
	"--get": true, "--get-all": true, "--get-regexp": true, "--get-urlmatch": true, "--list": true,
	"-l": true, "--show-origin": true, "--show-scope": true, "--name-only": true, "--null": true,
	"-z": true, "--global": true, "--system": true, "--local": true, "--worktree": true,
	"--includes": true, "--no-includes": true, "--bool": true, "--int": true, "--path": true,
	"--all": true, "--type": true, "--default": true, "--file": true, "-f": true, "--blob": true,
}

// gitConfig allows reading only: writing can set core.pager, core.fsmonitor or
// alias.x='!cmd', which later git runs execute; --edit runs an editor.
func gitConfig(args []string) string {
	read := false
	for i, a := range args {
		name, _, _ := strings.Cut(a, "=")
		switch {
		case i == 0 && (a == "get" || a == "list"):
			read = true
		case strings.HasPrefix(a, "-") && !gitConfigRead[name]:
			return "`git config " + shorten(a) + "`: only reading options are covered"
		case strings.HasPrefix(name, "--get") || name == "--list" || name == "-l":
			read = true
		}
	}
	if !read {
		return "`git config` without --get/--list (or get/list) writes settings that make later git runs execute commands (core.pager, alias.x='!cmd')"
	}
	return ""
}
