package shellgrant

import (
	"os"
	"slices"
	"strings"
	"testing"

	"mvdan.cc/sh/v3/syntax"
)

func init() { tables["parse"] = parseCases }

// parseCases: text Bash and the parser could read differently always asks;
// the shapes they agree on are covered, and the differential test runs them.
var parseCases = []tcase{
	// Line continuations: only inside single quotes.
	asking("ls # x \\\nrm a", "ls"),
	asking("ls \\\n-la", "ls"),
	asking("echo \"a\\\nb\"; ls", "echo", "ls"),
	covered("echo 'a\\\nb'; ls", "echo", "ls"),
	asking("cat <<EOF\nx\nEO\\\nF\nrm a\nEOF", "cat"),
	asking("cat <<'EOF'\nx\\\nEOF\nrm a\nEOF", "cat", "rm", "EOF"),
	asking("cat <<E\\\nOF\nrm a\nE\nOF\nls"),
	asking("awk 'BEGIN{x=1}' # \\\nrm a", "awk"),

	// Characters: control, invisible, not UTF-8, locale-dependent.
	asking("ls\r\nrm a"),
	asking("ls \\\r\nrm a"),
	asking("ls\x00; rm x"),
	asking("ls \x01"),
	asking("ls \x7f"),
	asking("echo \x1b[31m"),
	asking("ls \xff"),
	asking("ls \u202e"),
	asking("ls \u200b"),
	asking("ls\u00a0-la"),
	asking("echo 'x\u2028'"),
	asking("echo \u0101\\; rm x"),
	asking("echo é|rm x"),
	covered("echo 'é' | grep é", "echo", "grep"),

	// Quoting the two must agree on.
	covered("echo $'a\\'b' ; ls", "echo", "ls"),
	covered("echo 'a'\\''b'; ls", "echo", "ls"),
	covered("echo \\#; ls", "echo", "ls"),
	covered("echo x\\;rm y", "echo"),
	covered("echo a#b; ls", "echo", "ls"),
	covered("echo a #b; rm x", "echo"),
	covered("ls;#x\ncat f", "ls", "cat"),
	covered("echo ${x:-'}'}; ls", "echo", "ls"),
	covered("echo \"`echo \\\"x\\\"`\"; ls", "echo", "ls"),
	covered("ls `ls \\`echo x\\``", "ls", "echo"),
	covered("ls \"$(echo \")\")\"", "ls", "echo"),
	covered("echo {a,b}; ls", "echo", "ls"),
	covered("echo $(< f)", "echo"),
	asking("echo $\"a$(rm x)\"", "echo", "rm"),
	asking("echo $\"hello\"", "echo"),

	// Substitutions whose end depends on what is inside.
	covered("ls $(cat <<EOF\n)\nEOF\n)", "ls", "cat"),
	asking("ls $(case x in x) echo a;; esac)", "ls", "echo"),
	covered("ls `case x in x) echo a;; esac`", "ls", "echo"),
	covered("ls `# a\necho b`", "ls", "echo"),
	covered("ls $(ls # )\necho c\n)", "ls", "echo"),
	covered("echo $((1+(2)))", "echo"),

	// Here-documents: only plain end markers.
	asking("cat <<$x\nrm y\n$x"),
	asking("cat <<''\nrm x\n\nls", "cat", "ls"),
	asking("cat <<\"E F\"\nx\nE F", "cat"),
	asking("cat <<$(rm x)\ny\n$(rm x)"),
	covered("cat <<E\\OF\nx\nEOF", "cat"),
	covered("cat <<EOF\nx\nEOF \nrm a\nEOF", "cat"),
	covered("cat <<-EOF\n\tx\n\tEOF\nls", "cat", "ls"),
	covered("cat <<A <<B\nx\nA\ny\nB\nls", "cat", "ls"),
	covered("cat <<EOF\n$(ls)\nEOF", "cat", "ls"),
	covered("cat <<'EOF'\n$(rm x)\nEOF", "cat"),
	covered("cat <<\"EOF\"\n$(rm x)\nEOF", "cat"),
	asking("cat <<EOF\nx"),

	// Shapes explored against Bash: they agree.
	covered("case x in (x) ls;; esac", "ls"),
	covered("case x in x) ls;& y) cat f;; esac", "ls", "cat"),
	covered("case x in x) ls;;& x) cat f;; esac", "ls", "cat"),
	covered("echo ${x/\\}/rm}; ls", "echo", "ls"),
	covered("coproc x ls", "x"),
	covered("coproc { ls; }", "ls"),
	covered("echo \"${x:-\"$(ls)\"}\"", "echo", "ls"),
	covered("cat <<EOF | ls\nx\nEOF", "cat", "ls"),
	covered("echo \"\\$(ls)\"", "echo"),
	covered("echo \"\\`ls\\`\"", "echo"),
	covered("echo $(echo \\`ls\\`)", "echo"),
	covered("cat <<EOF; cat <<EOF\nx\nEOF\ny\nEOF", "cat"),
	asking("echo \"$(case x in x) echo ')' ;; esac)\"; ls", "echo", "ls"),
	covered("echo $(cat <<'EOF'\n)\nEOF\n); ls", "echo", "cat", "ls"),
	covered("ls # `rm x`", "ls"),
	covered("echo `ls # `; cat f", "echo", "ls", "cat"),
	covered("echo \"${x//\"/\"/x}\"; ls", "echo", "ls"),
	covered("echo `echo \"$(ls)\"`", "echo", "ls"),
	covered("echo $x[$(ls)]", "echo", "ls"),
	covered("echo $'\\''; ls", "echo", "ls"),
	covered("echo $'\\x27'; ls", "echo", "ls"),
	covered("echo $'\\047'; ls", "echo", "ls"),
	covered("ls #\\", "ls"),
	covered("cat <<EOF\n\\$(ls)\nEOF", "cat"),
	covered("cat <<EOF\n\\\\$(ls)\nEOF", "cat", "ls"),
	covered("cat <<EOF\n\\`ls\\`\nEOF", "cat"),
	covered("cat <<EOF\n'$(ls)'\nEOF", "cat", "ls"),
	covered("cat <<EOF\nx\n EOF\nEOF", "cat"),
	covered("cat <<EOF\nx\nEOF\t\nEOF", "cat"),
	covered("echo `cat <<EOF\nx\nEOF`", "echo", "cat"),
	covered("cat <<<EOF\nls", "cat", "ls"),
	asking("echo $((ls) )"),
	asking("((ls); cat f)"),
	asking("time ! ls"),
	asking("echo $(cat <<EOF\nx\nEOF)"),
	asking("ls'#'; cat f", "ls#", "cat"),
	asking("!ls", "!ls"),
	asking("'git status'", "git status"),
	asking("Sudo ls", "Sudo"),
	asking("PYTHON3 x.py", "PYTHON3"),
	asking("GIT push", "GIT"),
	asking("lѕ", "lѕ"),

	// Syntax only some Bash versions or options read.
	asking("ls !(x)", "ls"),
	asking("ls +(a|b)", "ls"),
	asking("[[ x == @(a|b) ]] && ls", "ls"),
	asking("echo ${ rm x; }", "echo", "rm"),
	asking("echo ${|rm x;}", "echo", "rm"),
}

// TestRefusedShapesDisagree shows why the shapes above are refused: for each,
// Bash runs other commands than the parser alone finds (the hidden rm, or
// "ls\r" for ls). The analysis must ask for every one.
func TestRefusedShapesDisagree(t *testing.T) {
	if _, err := os.Stat(bashPath); err != nil {
		t.Skip("no " + bashPath)
	}
	shapes := []string{
		"ls # x \\\nrm a",
		"cat <<EOF\nx\nEO\\\nF\nrm a\nEOF",
		"ls\r\nrm a",
		"ls \\\r\nrm a",
	}
	h := newHarness(t, []string{"ls", "cat", "rm"})
	for _, c := range shapes {
		if a := check(c); len(a.AlwaysAsk) == 0 {
			t.Errorf("%q does not ask (bases %q)", c, a.Bases)
		}
		ran, err := h.ran(c, false)
		if err != nil {
			t.Fatal(err)
		}
		sees := parserSees(c)
		slices.Sort(ran)
		slices.Sort(sees)
		if slices.Equal(ran, sees) {
			t.Errorf("%q: bash ran %q, as the parser sees: the shape hides nothing", c, ran)
		}
	}
}

// parserSees is every command name the parser finds, with no other check.
func parserSees(command string) []string {
	f, err := syntax.NewParser().Parse(strings.NewReader(command), "")
	if err != nil {
		return nil
	}
	var names []string
	syntax.Walk(f, func(n syntax.Node) bool {
		if ce, ok := n.(*syntax.CallExpr); ok && len(ce.Args) > 0 {
			names = append(names, ce.Args[0].Lit())
		}
		return true
	})
	return names
}
