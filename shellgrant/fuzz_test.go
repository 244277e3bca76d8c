package shellgrant

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"
)

// slack is what the fuzz target allows beyond Budget: the clock is read every
// few nodes and every 256 bytes parsed, and a loaded machine pauses goroutines.
const slack = 200 * time.Millisecond

func FuzzAnalyze(f *testing.F) {
	for _, seed := range []string{
		"git status && rm -rf x", "ls | xargs rm", "find . -exec rm {} \\;",
		"awk 'BEGIN{system(\"rm x\")}'", "bash -c 'rm x'", "$(rm x)", "`rm x`",
		"cat <<EOF\nhello $(rm x)\nEOF", "ls 2>&1 >/dev/null", "a=rm; $a x",
		"for ((i=0;i<3;i++)); do echo ${a[i]:1:2}; done", "sed -n '/x/{p;q}' f",
		"git -c core.pager='rm x' log", "[[ -v a[0] && $x -eq 1 ]]", "f() { ls; }",
		"declare -A m=([k]=v); printf -v y %s ${!m[@]}", "ls &&", "",
		"echo ${" + strings.Repeat("a[", 30) + "1" + strings.Repeat("]", 30) + "}",
		strings.Repeat("$(", 30) + "ls" + strings.Repeat(")", 30),
		"ls # x \\\nrm a", "cat <<EOF\nx\nEO\\\nF\nrm a\nEOF", "awk '{print > \"f\"}'",
		"for PATH in ./bin; do ls; done", "set -k; ls x=1", "git status --output=x",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, command string) {
		start := time.Now()
		a := analyze(context.Background(), command, Budget) // without the panic guard, so panics surface
		if took := time.Since(start); took > Budget+slack {
			t.Fatalf("analysis took %v (budget %v): %+v", took, Budget, a)
		}
		if b := analyze(context.Background(), command, Budget); !timedOut(a) && !timedOut(b) &&
			(!slices.Equal(a.Bases, b.Bases) || !slices.Equal(a.AlwaysAsk, b.AlwaysAsk)) {
			t.Fatalf("Analyze is not deterministic: %+v vs %+v", a, b)
		}
		invariants(t, a)
	})
}

// timedOut reports whether an analysis stopped on its budget.
func timedOut(a Analysis) bool {
	return len(a.AlwaysAsk) == 1 && strings.HasPrefix(a.AlwaysAsk[0], tooComplex)
}

// invariants are what holds for any analysis: Covered and Grantable agree
// with AlwaysAsk and Bases, and every reason is one readable line.
func invariants(t *testing.T, a Analysis) {
	all := func(string) bool { return true }
	if a.Covered(all) != (len(a.AlwaysAsk) == 0 && len(a.Bases) > 0) {
		t.Fatalf("Covered(all) = %v with %+v", a.Covered(all), a)
	}
	if a.Covered(func(string) bool { return false }) {
		t.Fatalf("covered with no grant: %+v", a)
	}
	// Grant every other base: covered only if that is every base.
	some := map[string]bool{}
	for i, b := range a.Bases {
		if i%2 == 0 {
			some[b] = true
		}
	}
	if a.Covered(func(b string) bool { return some[b] }) {
		if len(a.AlwaysAsk) > 0 {
			t.Fatalf("covered despite AlwaysAsk: %+v", a)
		}
		for _, b := range a.Bases {
			if !some[b] {
				t.Fatalf("covered without a grant for %q: %+v", b, a)
			}
		}
	}
	if len(a.AlwaysAsk) > 0 && a.Grantable(all) != nil {
		t.Fatalf("Grantable not nil despite AlwaysAsk: %+v", a)
	}
	for _, line := range a.AlwaysAsk {
		if line == "" || strings.Contains(line, "\n") {
			t.Fatalf("AlwaysAsk line %q is not one readable line: %+v", line, a)
		}
	}
}
