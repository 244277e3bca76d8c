package shellgrant

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// interpreter describes how a language runtime is given code. A grant for one
// covers running a script file; code on the command line (-c, -e…), code that
// is loaded by an option (-r, -M, -I…), or a program read from standard input
// (no script, or "-") always asks.
type interpreter struct {
	code     string   // short options that take or load code
	codeLong []string // long options that take or load code
	values   string   // short options whose value is the next argument
	script   string   // short options whose value is the script file
}

var interpreters = map[string]interpreter{
	"python":    {code: "cmi", values: "WXQ"},
	"pypy":      {code: "cmi", values: "WXQ"},
	"node":      {code: "epri", codeLong: []string{"eval", "print", "require", "import", "loader", "experimental-loader", "interactive"}, values: "C"},
	"nodejs":    {code: "epri", codeLong: []string{"eval", "print", "require", "import", "loader", "experimental-loader", "interactive"}, values: "C"},
	"perl":      {code: "eEMmdI"},
	"ruby":      {code: "erI", values: "CE"},
	"php":       {code: "rRBEadzc", script: "f"},
	"lua":       {code: "eil"},
	"luajit":    {code: "eil"},
	"Rscript":   {code: "e"},
	"R":         {code: "e", script: "f"},
	"osascript": {code: "e", values: "ls"},
	"julia":     {code: "eEiL", codeLong: []string{"eval", "print", "load"}},
	"tclsh":     {},
	"wish":      {},
}

// infoFlags may be given with no script: they print and exit.
var infoFlags = map[string]bool{"-V": true, "--version": true, "-h": true, "--help": true, "-v": true, "-version": true}

// check returns why this run of the interpreter always asks, or "".
func (in interpreter) check(name string, words []*syntax.Word) string {
	args, ok := staticArgs(words)
	if !ok {
		return "an argument to `" + name + "` is not plain text: it could be -c/-e code"
	}
	info := len(args) > 0
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-" || (a == "--" && i+1 < len(args) && args[i+1] == "-"):
			return "`" + name + " -` reads its program from standard input"
		case a == "--":
			if i+1 < len(args) {
				return ""
			}
		case strings.HasPrefix(a, "--"):
			if longOpt(a, in.codeLong...) {
				return "`" + name + " " + shorten(a) + "` runs code given on the command line"
			}
		case strings.HasPrefix(a, "-"):
			if shortOpt(a, in.code) {
				return "`" + name + " " + shorten(a) + "` runs code given on the command line or loads it"
			}
			if shortOpt(a, in.script) {
				return ""
			}
			if strings.IndexByte(in.values, a[len(a)-1]) >= 0 {
				i++
			}
		default:
			return "" // the script; the rest are its arguments
		}
		info = info && infoFlags[a]
	}
	if info {
		return ""
	}
	return "`" + name + "` without a script reads its program from standard input"
}

// checkDeno: deno eval and deno repl run code given to them.
func checkDeno(args []string) string {
	for _, a := range args {
		if a == "-" {
			return "`deno -` reads its program from standard input"
		}
		if strings.HasPrefix(a, "-") {
			continue
		}
		if a == "eval" || a == "repl" {
			return "`deno " + a + "` runs code given to it"
		}
		return ""
	}
	if len(args) > 0 && infoFlags[args[0]] {
		return ""
	}
	return "`deno` without a subcommand reads code (repl)"
}

// checkBun: bun -e/-p run code; bun x runs any package's program.
func checkBun(args []string) string {
	for _, a := range args {
		switch {
		case shortOpt(a, "ep") || longOpt(a, "eval", "print"):
			return "`bun " + shorten(a) + "` runs code given on the command line"
		case a == "-":
			return "`bun -` reads its program from standard input"
		case a == "x" || a == "repl":
			return "`bun " + a + "` runs code a grant cannot see"
		case !strings.HasPrefix(a, "-"):
			return ""
		}
	}
	return ""
}
