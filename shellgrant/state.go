package shellgrant

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Shell state a grant cannot see: variables that change what later commands
// run (PATH, HOME, IFS, BASH_ENV, PS4, GIT_*, LD_*…), and options that change
// how Bash reads or runs the rest of the line (set -k, set -a, set -x, shopt).

// decl handles declare, local, export, readonly, typeset and nameref.
func (an *analyzer) decl(dc *syntax.DeclClause) {
	variant := dc.Variant.Value
	an.base(variant)
	if variant == "nameref" {
		an.ask("`nameref` makes a name stand for another variable (PATH…)")
		return
	}
	for _, as := range dc.Args {
		if as.Name != nil {
			an.varName(variant, as.Name.Value)
			continue
		}
		arg, ok := literal(as.Value)
		switch {
		case !ok:
			an.ask("`%s %s`: an argument that is not plain text could set any variable (PATH=…)", variant, show(as.Value))
		case strings.HasPrefix(arg, "-") || strings.HasPrefix(arg, "+"):
			an.ask("`%s %s`: options (namerefs, functions, arithmetic, exporting) are not covered by grants", variant, arg)
		default:
			an.varName(variant, arg)
		}
	}
}

// varName checks a variable a command sets. Names with capitals are the
// environment's (PATH, LD_PRELOAD, BASH_ENV, GIT_PAGER…): setting one changes
// what later commands run. A subscript is evaluated as arithmetic, which runs
// any $(…) in it. http_proxy and its kin, and npm's npm_config_*, are read
// in lower case.
func (an *analyzer) varName(cmd, name string) {
	what := name
	if cmd != "" {
		what = cmd + " " + name
	}
	switch {
	case strings.Contains(name, "["):
		an.ask("`%s`: bash evaluates the subscript as arithmetic, which runs any $(…) in it", shorten(what))
	case !syntax.ValidName(name):
		an.ask("`%s` is not a plain variable name", shorten(what))
	case strings.ToLower(name) != name:
		an.ask("`%s` sets %s: names with capitals are environment variables (PATH, HOME, LD_PRELOAD, BASH_ENV…) that change what later commands run", shorten(what), name)
	case strings.HasSuffix(name, "_proxy"):
		an.ask("`%s` sets %s, which sends later commands' network traffic elsewhere", shorten(what), name)
	case strings.HasPrefix(name, "npm_config_"):
		an.ask("`%s` sets %s, an npm setting (some name programs or files of code)", shorten(what), name)
	}
}

// loopVar: for NAME in … and select NAME in … set NAME.
func (an *analyzer) loopVar(wi *syntax.WordIter) {
	if wi.Name != nil {
		an.varName("for", wi.Name.Value)
	}
}

// coproc NAME sets NAME and NAME_PID.
func (an *analyzer) coproc(cc *syntax.CoprocClause) {
	if cc.Name == nil {
		return
	}
	name, ok := literal(cc.Name)
	if !ok {
		an.ask("`coproc %s`: a name that is not plain text", show(cc.Name))
		return
	}
	an.varName("coproc", name)
}

// setFlags are the options of set that change nothing a grant cares about:
// errexit, nounset, noglob, noclobber (and pipefail, by name).
const setFlags = "eufC"

var setNames = map[string]bool{"errexit": true, "nounset": true, "noglob": true, "noclobber": true, "pipefail": true}

// checkSet allows set with the options above, and set -- ARGS. Others change
// how the rest runs: -k (assignments anywhere become environment), -a
// (export all), -x (expands PS4), -m (jobs leave the process group), -T/-E
// (traps), -o posix, +B, -H….
func checkSet(args []string) string {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" || a == "-" || a == "" || (a[0] != '-' && a[0] != '+') {
			return "" // the rest are positional parameters
		}
		for j := 1; j < len(a); j++ {
			switch c := a[j]; {
			case strings.IndexByte(setFlags, c) >= 0:
			case c == 'o':
				if i+1 >= len(args) || !setNames[args[i+1]] {
					return "`set " + shorten(strings.Join(args, " ")) + "`: only errexit, nounset, noglob, noclobber and pipefail are covered"
				}
				i++
			default:
				return "`set " + a + "` changes how the rest of the line runs (set -k, -a, -x, -m, -o posix…)"
			}
		}
	}
	return ""
}

// shoptSafe are the shopt options that only change how globs match, which the
// checker never relies on (a glob is never plain text to it).
var shoptSafe = map[string]bool{"nullglob": true, "failglob": true, "dotglob": true, "globstar": true,
	"nocaseglob": true, "nocasematch": true, "globasciiranges": true, "xpg_echo": true}

// checkShopt allows printing and querying, and setting the options above.
// extglob and expand_aliases change how Bash reads the following lines.
func checkShopt(args []string) string {
	setting := false
	for _, a := range args {
		switch {
		case a == "-s" || a == "-u":
			setting = true
		case a == "-p" || a == "-q":
		case strings.HasPrefix(a, "-"):
			return "`shopt " + a + "`: only -s, -u, -p and -q are covered"
		case setting && !shoptSafe[a]:
			return "`shopt " + shorten(strings.Join(args, " ")) + "` changes how Bash reads or runs the rest (extglob, expand_aliases…)"
		}
	}
	return ""
}

// alwaysStateful are builtins that change state a grant cannot follow.
var alwaysStateful = map[string]string{
	"getopts": "sets OPTIND, OPTARG and a variable as it parses options",
	"history": "writes and reads history files (history -w FILE)",
}
