package shellgrant

import (
	"regexp"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// maxTreeDepth bounds how deep the walk goes into the syntax tree: deeper
// trees (${a[a[a[…]]]}) are too complex to check. Each level of shell nesting
// is a few levels of the tree.
const maxTreeDepth = 160

// visit is called for every node of the AST, so commands nested anywhere
// (substitutions, here-documents, assignment values…) are seen. Walk calls it
// with nil after a node's children, which keeps the depth.
func (an *analyzer) visit(node syntax.Node) bool {
	if node == nil {
		an.depth--
		if len(an.open) > 0 && an.open[len(an.open)-1] == an.depth {
			an.open = an.open[:len(an.open)-1]
			an.substs--
		}
		return true
	}
	if an.clock.over() {
		return false
	}
	an.depth++
	if an.depth > maxTreeDepth {
		an.clock.expired = true
		return false
	}
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
		an.ask("extended glob `%s`: Bash reads it only after shopt -s extglob, and other shells differently", show(&syntax.Word{Parts: []syntax.WordPart{n}}))
	case *syntax.WordIter:
		an.loopVar(n)
	case *syntax.CoprocClause:
		an.coproc(n)
	case *syntax.CmdSubst:
		if n.TempFile || n.ReplyVar {
			an.ask("`${ …; }` runs commands in this shell with Bash 5.3, and is an error before it: the Bash that runs it decides")
		}
		if !n.Backquotes {
			an.substs++
			an.open = append(an.open, an.depth-1)
		}
	case *syntax.CaseClause:
		if an.substs > 0 {
			an.ask("a case inside $(…): Bash 3.2 (macOS) ends the $(…) at the first pattern's )")
		}
	case *syntax.DblQuoted:
		if n.Dollar {
			an.ask("`$\"…\"` is translated when it runs, and the translation is expanded again")
		}
	case *syntax.SglQuoted:
		if !n.Dollar {
			an.quoted = append(an.quoted, span{int(n.Pos().Offset()), int(n.End().Offset())})
		}
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
	if len(ce.Assigns) > 0 {
		an.ask("`%s` before `%s` changes its environment (LD_PRELOAD, PATH, GIT_PAGER… can make it run other code)", show(ce.Assigns[0]), name)
	}
	switch {
	case name == "":
		an.base(name)
		an.ask("the command word is empty")
	case strings.Contains(name, "/"):
		an.base(name)
		an.ask("`%s` is a path, not a command name: a grant for %s must not cover any file called that", name, lastElem(name))
	case !commandName.MatchString(name):
		an.base(name)
		an.ask("`%s` is not a plain command name (ASCII letters, digits and . _ + - : @ %% , only): it could pass for another on the card", shorten(name))
	default:
		an.base(an.command(name, ce.Args[1:]))
	}
}

// commandName is a command name a grant can be for. A quoted "git status" is
// not one: it would run a program called that under the grant for git
// status. Non-ASCII letters could pass for others (Cyrillic ѕ in lѕ). The
// builtins named by a mark (".", ":", "[") are let through.
var commandName = regexp.MustCompile(`^([A-Za-z0-9_][A-Za-z0-9_.+:@%,-]*|[.:\[])$`)

func lastElem(path string) string {
	i := strings.LastIndexByte(strings.TrimRight(path, "/"), '/')
	return strings.TrimRight(path, "/")[i+1:]
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
