package shellgrant

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"
)

// check analyses with a long budget: the table tests are about the rules, and
// a loaded machine must not turn a slow run into "too complex". The budget
// itself is tested in bound_test.go.
func check(command string) Analysis {
	return analyzeWithin(context.Background(), command, 10*time.Second)
}

// tcase is one row of the grant tables: what Analyze must report, and
// whether the grants listed cover it.
type tcase struct {
	command string
	bases   []string // nil: no base
	asks    bool     // AlwaysAsk is not empty
	granted []string
	covered bool
}

// covered is a case that grants for its bases cover.
func covered(command string, bases ...string) tcase {
	return tcase{command, bases, false, bases, true}
}

// asking is a case that always asks, with these bases.
func asking(command string, bases ...string) tcase {
	return tcase{command, bases, true, bases, false}
}

// tables are every table of cases, by category (the differential test runs
// them all through Bash).
var tables = map[string][]tcase{}

func TestAnalyze(t *testing.T) {
	for category, cases := range tables {
		t.Run(category, func(t *testing.T) {
			for _, tt := range cases {
				t.Run(strings.ReplaceAll(tt.command, "/", "∕"), func(t *testing.T) { tt.check(t) })
			}
		})
	}
}

func (tt tcase) check(t *testing.T) {
	t.Helper()
	a := check(tt.command)
	if !slices.Equal(a.Bases, tt.bases) {
		t.Errorf("Bases = %q, want %q", a.Bases, tt.bases)
	}
	if got := len(a.AlwaysAsk) > 0; got != tt.asks {
		t.Errorf("AlwaysAsk = %q, want asks=%v", a.AlwaysAsk, tt.asks)
	}
	if got := a.Covered(grant(tt.granted...)); got != tt.covered {
		t.Errorf("Covered(%q) = %v, want %v (AlwaysAsk %q)", tt.granted, got, tt.covered, a.AlwaysAsk)
	}
}

// notGranted is a case grants could cover, but not the grants listed.
func notGranted(command string, bases []string, granted ...string) tcase {
	return tcase{command, bases, false, granted, false}
}
