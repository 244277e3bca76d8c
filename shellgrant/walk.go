package shellgrant

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// visit is called for every node of the AST, so commands nested anywhere
// (substitutions, here-documents, assignment values…) are seen.
func (an *analyzer) visit(node syntax.Node) bool {
	switch n := node.(type) {
	case *syntax.CallExpr:
		an.call(n)
	case *syntax.DeclClause:
		an.decl(n)
	case *syntax.LetClause:
		an.base("let")
		for _, x := range n.Exprs {
			an.arithm(x, "let")
		}
	case *syntax.FuncDecl:
		an.funcDecl(n)
	case *syntax.Redirect:
		an.redirect(n)
	case *syntax.Assign:
		if n.Index != nil {
			an.arithm(n.Index, "a["+show(n.Index)+"]")
		}
	case *syntax.ArrayElem:
		if n.Index != nil {
			an.arithm(n.Index, "["+show(n.Index)+"]")
		}
	case *syntax.ArithmExp:
		an.arithm(n.X, "$(("+show(n.X)+"))")
	case *syntax.ArithmCmd:
		an.arithm(n.X, "(("+show(n.X)+"))")
	case *syntax.CStyleLoop:
		an.loop(n)
	case *syntax.ParamExp:
		an.paramExp(n)
	case *syntax.UnaryTest:
		an.unaryTest(n)
	case *syntax.BinaryTest:
		an.binaryTest(n)
	case *syntax.ExtGlob:
		an.ask("extended glob `%s`: under zsh a glob qualifier like *(e:…:) runs code", show(&syntax.Word{Parts: []syntax.WordPart{n}}))
	}
	return true
}

// call handles a simple command: its assignments, its command word and, for
// the programs that need it, its arguments. Nested words are walked anyway.
func (an *analyzer) call(ce *syntax.CallExpr) {
	if len(ce.Args) == 0 {
		for _, as := range ce.Assigns {
			if as.Name != nil {
				an.varName("", as.Name.Value)
			}
		}
		return
	}
	name, ok := literal(ce.Args[0])
	if !ok {
		an.ask("the command word `%s` is not plain text: what it runs is decided when it runs", show(ce.Args[0]))
		return
	}
	an.base(name)
	if len(ce.Assigns) > 0 {
		an.ask("`%s` before `%s` changes its environment (LD_PRELOAD, PATH, GIT_PAGER… can make it run other code)", show(ce.Assigns[0]), name)
	}
	switch {
	case name == "":
		an.ask("the command word is empty")
	case strings.Contains(name, "/"):
		an.ask("`%s` is a path, not a command name: a grant for %s must not cover any file called that", name, lastElem(name))
	default:
		an.command(name, ce.Args[1:])
	}
}

func lastElem(path string) string {
	i := strings.LastIndexByte(strings.TrimRight(path, "/"), '/')
	return strings.TrimRight(path, "/")[i+1:]
}

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
// any $(…) in it.
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
		an.ask("`%s` sets %s: names with capitals are environment variables (PATH, LD_PRELOAD, BASH_ENV…) that change what later commands run", shorten(what), name)
	}
}

// funcDecl asks for any function definition: a function named like a granted
// command (ls() { rm -rf ~; }) would run instead of it.
func (an *analyzer) funcDecl(fd *syntax.FuncDecl) {
	name := "a function"
	if fd.Name != nil {
		name = "`" + fd.Name.Value + "`"
	}
	an.ask("it defines %s: a function can stand in for any command name", name)
}
