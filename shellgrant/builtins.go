package shellgrant

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Builtins that set variables by name (read, printf -v, mapfile, getopts,
// unset, wait -p) can set PATH-like variables, and bash evaluates a subscript
// in a name as arithmetic: read 'a[$(rm -rf ~)]' runs rm.

// names checks a builtin whose operands, and the values of the options in
// nameOpts, are variable names. spec is its getopt string.
func names(cmd, spec, nameOpts string) func([]*syntax.Word) string {
	return func(words []*syntax.Word) string {
		args, ok := staticArgs(words)
		if !ok {
			return "an argument to `" + cmd + "` is not plain text: it could name PATH or a[$(…)]"
		}
		opts, operands, ok := getopt(args, spec)
		if !ok {
			return "`" + cmd + "` with an option this package does not know"
		}
		var vars []string
		for _, o := range opts {
			switch {
			case o.letter == 'C' && (cmd == "mapfile" || cmd == "readarray"):
				return "`" + cmd + " -C` runs its callback as code"
			case o.letter == 'n' && cmd == "unset":
				return "`unset -n` acts on namerefs"
			case strings.IndexByte(nameOpts, o.letter) >= 0:
				vars = append(vars, o.value)
			}
		}
		return checkNames(cmd, append(vars, operands...))
	}
}

// checkGetopts: getopts optstring name [args]: only name is a variable.
func checkGetopts(words []*syntax.Word) string {
	args, ok := staticArgs(words)
	if !ok || len(args) < 2 {
		return "`getopts` without a plain optstring and variable name"
	}
	return checkNames("getopts", args[1:2])
}

// checkNames returns why setting these variables is not covered, or "".
func checkNames(cmd string, vars []string) string {
	var sub analyzer
	for _, v := range vars {
		sub.varName(cmd, v)
	}
	if len(sub.asks) > 0 {
		return sub.asks[0]
	}
	return ""
}

// checkPrintf: printf -v NAME sets a variable; printf only takes options
// before its format, so only the first argument can be one.
func checkPrintf(words []*syntax.Word) string {
	if len(words) == 0 {
		return ""
	}
	first, ok := argText(words[0])
	switch {
	case !ok:
		return "`printf " + show(words[0]) + " …`: a first argument that is not plain text could be -v NAME"
	case first == "-v":
		if len(words) < 2 {
			return ""
		}
		name, ok := argText(words[1])
		if !ok {
			return "`printf -v " + show(words[1]) + "` sets a variable whose name is decided when it runs"
		}
		return checkNames("printf -v", []string{name})
	case strings.HasPrefix(first, "-v"):
		return checkNames("printf -v", []string{first[2:]})
	}
	return ""
}

// checkHash: hash -p PATH NAME makes NAME run another file.
func checkHash(words []*syntax.Word) string {
	if len(words) == 0 {
		return ""
	}
	return "`hash` with arguments can bind a command name to any file (hash -p /tmp/x ls)"
}

// checkBracket is checkTest for [ … ], without the closing ].
func checkBracket(words []*syntax.Word) string {
	if n := len(words); n > 0 {
		if last, ok := literal(words[n-1]); ok && last == "]" {
			words = words[:n-1]
		}
	}
	return checkTest(words)
}

// checkTest: test -v / -R take a variable name, whose subscript bash evaluates
// as arithmetic. An operand that is not plain text could become -v itself
// ([ $x ] with x='-v a[$(cmd)]'), so it is allowed only where the shape of
// the expression makes it an operand: [ "$x" ], [ -f "$x" ], [ "$a" = "$b" ].
func checkTest(words []*syntax.Word) string {
	args := make([]string, len(words))
	static := make([]bool, len(words))
	allStatic := true
	for i, w := range words {
		args[i], static[i] = argText(w)
		if !static[i] {
			allStatic = false
			if !isQuotedField(w) {
				return "`test`/`[` with `" + show(w) + "`: it can split into several words, such as -v a[$(…)]"
			}
		}
	}
	for i, a := range args {
		if static[i] && (a == "-v" || a == "-R") {
			if i+1 >= len(args) || !static[i+1] || !syntax.ValidName(args[i+1]) {
				return "`test " + a + "`: a subscript in the variable name is evaluated as arithmetic, which runs $(…)"
			}
		}
	}
	if allStatic || testShapeSafe(args, static) {
		return ""
	}
	return "`test`/`[` with a $var where an operator could go: its value could be -v a[$(…)]"
}

// testShapeSafe reports whether, by the argument count rules of test, every
// non-static argument is an operand.
func testShapeSafe(args []string, static []bool) bool {
	switch len(args) {
	case 1:
		return true
	case 2:
		return static[0] && args[0] != "-v" && args[0] != "-R"
	case 3:
		return static[1] && isBinaryTestOp(args[1])
	}
	return false
}

func isBinaryTestOp(s string) bool {
	switch s {
	case "=", "==", "!=", "<", ">", "-eq", "-ne", "-lt", "-le", "-gt", "-ge", "-nt", "-ot", "-ef":
		return true
	}
	return false
}

// isQuotedField reports whether a word stays one field however it expands:
// it is wholly double-quoted ("$x", "a$(b)").
func isQuotedField(w *syntax.Word) bool {
	if len(w.Parts) == 0 {
		return false
	}
	for _, p := range w.Parts {
		switch p := p.(type) {
		case *syntax.SglQuoted:
		case *syntax.DblQuoted:
			if expandsToFields(p) {
				return false
			}
		case *syntax.Lit:
			var g globState
			var b strings.Builder
			if !g.unquoted(p.Value, &b) {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// opt is one option getopt found, with its value when it takes one.
type opt struct {
	letter byte
	value  string
}

// getopt splits args as bash's builtins do: options first (bundled, a value
// glued or in the next argument), "--" or the first operand ends them. ok is
// false for an option not in spec or a missing value.
func getopt(args []string, spec string) (opts []opt, operands []string, ok bool) {
	i := 0
	for ; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			i++
			break
		}
		if len(a) < 2 || a[0] != '-' {
			break
		}
		for j := 1; j < len(a); j++ {
			k := strings.IndexByte(spec, a[j])
			if k < 0 || a[j] == ':' {
				return nil, nil, false
			}
			if k+1 < len(spec) && spec[k+1] == ':' {
				value := a[j+1:]
				if value == "" {
					if i+1 >= len(args) {
						return nil, nil, false
					}
					i++
					value = args[i]
				}
				opts = append(opts, opt{a[j], value})
				break
			}
			opts = append(opts, opt{letter: a[j]})
		}
	}
	return opts, args[i:], true
}

// expandsToFields reports whether a double-quoted part can still expand to
// several fields: "$@", "${a[@]}", "${!prefix@}".
func expandsToFields(dq *syntax.DblQuoted) bool {
	for _, p := range dq.Parts {
		pe, ok := p.(*syntax.ParamExp)
		if !ok {
			continue
		}
		if pe.Param != nil && pe.Param.Value == "@" || pe.Names == syntax.NamesPrefixWords {
			return true
		}
		if w, ok := pe.Index.(*syntax.Word); ok {
			if s, _ := literal(w); s == "@" {
				return true
			}
		}
	}
	return false
}
