package shellgrant

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"
)

// shapes are deep or long inputs of every kind of nesting, as big as the
// limits let through and beyond.
func shapes() map[string]string {
	nest := func(open, mid, close string, n int) string {
		return strings.Repeat(open, n) + mid + strings.Repeat(close, n)
	}
	fill := func(unit string) string { return strings.Repeat(unit, maxInput/len(unit)) }
	return map[string]string{
		"subscripts":      "echo ${" + nest("a[", "1", "]", 800) + "}",
		"subscripts 31":   "echo ${" + nest("a[", "1", "]", 31) + "}",
		"arith subscript": "echo $((" + nest("a[", "1", "]", 31) + "))",
		"command subst":   nest("$(", "ls", ")", 31),
		"quoted subst":    nest("\"$(", "ls", ")\"", 31),
		"subshells":       nest("(", "ls", ")", 31),
		"blocks":          nest("{ ", "ls", "; }", 31),
		"arith parens":    "echo $((" + nest("1+(", "1", ")", 29) + "))",
		"slices":          "echo ${" + nest("a:${", "b", "}", 30) + "}",
		"defaults":        "echo " + nest("${a:-", "x", "}", 31),
		"process subst":   "cat " + nest("<(cat ", "x", ")", 31),
		"tests":           "[[ " + nest("( ", "a", " )", 31) + " ]]",
		"ifs":             nest("if ls; then ", "ls", "; fi", 200),
		"pipes":           fill("ls | ") + "ls",
		"words":           fill("a "),
		"heredoc":         "cat <<E\n" + fill("$(ls)\n") + "E\n",
		"subscripts flat": "echo " + fill("${a[1]}"),
		"quoted closers":  "echo ${" + strings.Repeat("a[']'", 200) + "1" + strings.Repeat("]", 200) + "}",
		"subst closers":   strings.Repeat("$(echo ')' ", 300) + "ls" + strings.Repeat(")", 300),
		"too long":        "ls " + strings.Repeat("a", maxInput),
	}
}

// deep are the shapes beyond the limits: they must ask as too complex.
var deep = []string{"subscripts", "quoted closers", "subst closers", "too long", "heredoc", "ifs", "pipes"}

// TestShapesAreBounded: every shape is analysed within the budget (the 2.4 KB
// ${a[a[…]]} took 9 s before the limits), and those beyond the limits ask.
func TestShapesAreBounded(t *testing.T) {
	for name, command := range shapes() {
		start := time.Now()
		a := Analyze(context.Background(), command)
		if took := time.Since(start); took > Budget+slack {
			t.Errorf("%s: %d bytes took %v", name, len(command), took)
		}
		if slices.Contains(deep, name) && (len(a.AlwaysAsk) != 1 || !strings.HasPrefix(a.AlwaysAsk[0], tooComplex)) {
			t.Errorf("%s: AlwaysAsk = %q, want %q", name, a.AlwaysAsk, tooComplex)
		}
	}
}

func TestBudgetAsks(t *testing.T) {
	a := analyzeWithin(context.Background(), "ls", 0)
	if len(a.AlwaysAsk) != 1 || a.AlwaysAsk[0] != tooComplex || a.Covered(grant("ls")) {
		t.Errorf("with no budget: %+v", a)
	}
}

func TestStopAsks(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if a := Analyze(ctx, "ls"); len(a.AlwaysAsk) != 1 || a.AlwaysAsk[0] != stopped {
		t.Errorf("stopped before: %+v", a)
	}
	// Stopped while the syntax tree is walked: the context ends after the
	// parser has read all of the command.
	command := strings.Repeat("ls a; ", 1000)
	stop := &stopAfter{Context: context.Background(), calls: len(command)/256 + 2}
	if a := Analyze(stop, command); len(a.AlwaysAsk) != 1 || a.AlwaysAsk[0] != stopped {
		t.Errorf("stopped during the walk: %+v", a)
	}
	if stop.calls > 0 {
		t.Errorf("the context was asked %d times too few: the walk did not look", stop.calls)
	}
}

// stopAfter is a context that ends after its Err has been called calls times.
type stopAfter struct {
	context.Context
	calls int
}

func (s *stopAfter) Err() error {
	if s.calls--; s.calls < 0 {
		return context.Canceled
	}
	return nil
}

func TestManyReasonsAreCapped(t *testing.T) {
	var b strings.Builder
	for i := range 500 {
		fmt.Fprintf(&b, "echo ${a[x%d]}; ", i)
	}
	a := check(b.String())
	if len(a.AlwaysAsk) == 0 || len(a.AlwaysAsk) > maxReasons {
		t.Errorf("%d reasons, want 1 to %d", len(a.AlwaysAsk), maxReasons)
	}
}
