package shellgrant

import (
	"os"
	"slices"
	"sort"
	"strings"
	"testing"
)

// mayNotRun are cases whose bases Bash cannot all run, whatever the stubs
// return: the reason is given for each.
var mayNotRun = map[string]string{
	"case $x in a) rm x;; esac":                                    "x is empty, so no pattern matches",
	"if ls; then cat f; elif grep x f; then wc f; else echo n; fi": "wc needs ls to fail and grep to succeed",
}

// TestBashAgrees runs every case of the tables through the real Bash (see
// harness) and checks that Bash ran exactly the programs and builtins the
// analysis reported, for every case a grant can cover. Cases that always ask
// run too, to show Bash copes with them; what they run is not compared.
func TestBashAgrees(t *testing.T) {
	if _, err := os.Stat(bashPath); err != nil {
		t.Skip("no " + bashPath)
	}
	byCommand := map[string]tcase{}
	var names []string
	for _, cases := range tables {
		for _, tt := range cases {
			if !safeForBash(tt.command) {
				continue
			}
			if prev, ok := byCommand[tt.command]; !ok || prev.asks {
				byCommand[tt.command] = tt
			}
			for _, b := range tt.bases {
				names = append(names, program(b))
			}
		}
	}
	commands := make([]string, 0, len(byCommand))
	for c := range byCommand {
		commands = append(commands, c)
	}
	sort.Strings(commands)
	slices.Sort(names)
	h := newHarness(t, slices.Compact(names))
	compared := map[string]bool{}
	for c, tt := range byCommand {
		compared[c] = !tt.asks
	}
	outcomes := h.runAll(commands, compared)
	for _, c := range commands {
		tt, got := byCommand[c], outcomes[c]
		t.Run(strings.ReplaceAll(c, "/", "∕"), func(t *testing.T) {
			if got.err != nil {
				t.Fatal(got.err)
			}
			if tt.asks {
				return
			}
			want := map[string]bool{}
			for _, b := range check(c).Bases {
				want[program(b)] = true
			}
			for _, n := range got.names {
				if !want[n] {
					t.Errorf("bash ran %q, which the analysis did not report (bases %q)", n, tt.bases)
				}
			}
			if _, ok := mayNotRun[c]; ok {
				return
			}
			for n := range want {
				if !slices.Contains(got.names, n) {
					t.Errorf("the analysis reported %q, which bash never ran (it ran %q)", n, got.names)
				}
			}
		})
	}
}
