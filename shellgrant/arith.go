package shellgrant

import (
	"regexp"

	"mvdan.cc/sh/v3/syntax"
)

// Bash evaluates a variable's value as arithmetic when arithmetic reads it,
// and a subscript in that value runs any $(…): x='a[$(rm -rf ~)]'; echo $((x))
// runs rm. So arithmetic may hold numbers only.

// number is an arithmetic literal: 42, 0x2A, 052, 16#2a.
var number = regexp.MustCompile(`^([0-9]+|0[xX][0-9a-fA-F]+|[0-9]+#[0-9a-zA-Z@_]+)$`)

// arithm asks when an arithmetic expression reads anything but numbers.
func (an *analyzer) arithm(x syntax.ArithmExpr, where string) {
	if w := firstNonNumber(x); w != nil {
		an.ask("arithmetic `%s` reads `%s`: bash evaluates a variable's value as code there (x='a[$(cmd)]')", shorten(where), show(w))
	}
}

// firstNonNumber is the first word in x that is not a number literal.
func firstNonNumber(x syntax.ArithmExpr) *syntax.Word {
	switch x := x.(type) {
	case *syntax.Word:
		if s, ok := literal(x); ok && number.MatchString(s) {
			return nil
		}
		return x
	case *syntax.BinaryArithm:
		if w := firstNonNumber(x.X); w != nil {
			return w
		}
		return firstNonNumber(x.Y)
	case *syntax.UnaryArithm:
		return firstNonNumber(x.X)
	case *syntax.ParenArithm:
		return firstNonNumber(x.X)
	case *syntax.FlagsArithm:
		return firstNonNumber(x.X)
	case nil:
		return nil
	}
	return &syntax.Word{} // an expression kind this package does not know
}

// loop checks the three expressions of for ((init; cond; post)).
func (an *analyzer) loop(l *syntax.CStyleLoop) {
	for _, x := range []syntax.ArithmExpr{l.Init, l.Cond, l.Post} {
		if x != nil {
			an.arithm(x, "for (("+show(x)+"))")
		}
	}
}

// paramExp checks ${…} forms that evaluate code hidden in a value: indirection
// (${!x}), prompt expansion (${x@P}), subscripts and offsets (arithmetic).
func (an *analyzer) paramExp(pe *syntax.ParamExp) {
	name := ""
	if pe.Param != nil {
		name = pe.Param.Value
	}
	if pe.Excl && pe.Names == 0 {
		an.ask("`${!%s}` expands the variable named by %s's value, whose subscript can run $(…)", name, name)
	}
	if pe.Exp != nil && pe.Exp.Op == syntax.OtherParamOps && pe.Exp.Word != nil {
		if op, _ := literal(pe.Exp.Word); op == "P" {
			an.ask("`${%s@P}` expands %s's value as a prompt, which runs any $(…) in it", name, name)
		}
	}
	if pe.Exp != nil && (pe.Exp.Op == syntax.AssignUnset || pe.Exp.Op == syntax.AssignUnsetOrNull) {
		an.varName("${"+name+pe.Exp.Op.String()+"…}", name)
	}
	if pe.Index != nil {
		if w, ok := pe.Index.(*syntax.Word); !ok || !isAllIndex(w) {
			an.arithm(pe.Index, "${"+name+"["+show(pe.Index)+"]}")
		}
	}
	if pe.Slice != nil {
		for _, x := range []syntax.ArithmExpr{pe.Slice.Offset, pe.Slice.Length} {
			if x != nil {
				an.arithm(x, "${"+name+":"+show(x)+"}")
			}
		}
	}
}

// isAllIndex reports whether a subscript is @ or *: every element.
func isAllIndex(w *syntax.Word) bool {
	s, ok := literal(w)
	return ok && (s == "@" || s == "*")
}

// unaryTest checks [[ -v name ]] and [[ -R name ]]: a subscript is arithmetic.
func (an *analyzer) unaryTest(t *syntax.UnaryTest) {
	if t.Op != syntax.TsVarSet && t.Op != syntax.TsRefVar {
		return
	}
	w, ok := t.X.(*syntax.Word)
	if !ok {
		an.ask("`[[ %s … ]]` tests a variable name that is not plain text", t.Op)
		return
	}
	if s, ok := literal(w); !ok || !syntax.ValidName(s) {
		an.ask("`[[ %s %s ]]`: a subscript or a $var in the name is evaluated as arithmetic, which runs $(…)", t.Op, show(w))
	}
}

// binaryTest checks the arithmetic comparisons of [[ ]] (-eq, -lt…), which
// evaluate both sides as arithmetic.
func (an *analyzer) binaryTest(t *syntax.BinaryTest) {
	switch t.Op {
	case syntax.TsEql, syntax.TsNeq, syntax.TsLeq, syntax.TsGeq, syntax.TsLss, syntax.TsGtr:
	default:
		return
	}
	for _, side := range []syntax.TestExpr{t.X, t.Y} {
		w, ok := side.(*syntax.Word)
		if !ok {
			an.ask("`[[ … %s … ]]` compares an expression as arithmetic", t.Op)
			return
		}
		if s, ok := literal(w); !ok || !number.MatchString(s) {
			an.ask("`[[ %s %s … ]]`: bash evaluates the value of %s as arithmetic, which can run $(…)", show(w), t.Op, show(w))
		}
	}
}
