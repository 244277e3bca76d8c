package shellgrant

import (
	"slices"
	"testing"
)

func FuzzAnalyze(f *testing.F) {
	for _, seed := range []string{
		"git status && rm -rf x", "ls | xargs rm", "find . -exec rm {} \\;",
		"awk 'BEGIN{system(\"rm x\")}'", "bash -c 'rm x'", "$(rm x)", "`rm x`",
		"cat <<EOF\nhello $(rm x)\nEOF", "ls 2>&1 >/dev/null", "a=rm; $a x",
		"for ((i=0;i<3;i++)); do echo ${a[i]:1:2}; done", "sed -n '/x/{p;q}' f",
		"git -c core.pager='rm x' log", "[[ -v a[0] && $x -eq 1 ]]", "f() { ls; }",
		"declare -A m=([k]=v); printf -v y %s ${!m[@]}", "ls &&", "",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, command string) {
		a := analyze(command) // without the panic guard, so panics surface
		if b := Analyze(command); !slices.Equal(a.Bases, b.Bases) || !slices.Equal(a.AlwaysAsk, b.AlwaysAsk) {
			t.Fatalf("Analyze is not deterministic: %+v vs %+v", a, b)
		}
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
			if line == "" {
				t.Fatalf("empty AlwaysAsk line: %+v", a)
			}
		}
	})
}
