package shellgrant

import (
	"fmt"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Analysis is what a command line holds, for grants.
type Analysis struct {
	Bases     []string // base command of every simple command, in order of first appearance, no repeats
	AlwaysAsk []string // why no grant can ever cover it: one readable line each (empty: grants may cover it)
}

// Analyze parses command as Bash and reports its bases and the reasons no
// grant can cover it. It never panics: a command it cannot parse, or an empty
// one, always asks.
func Analyze(command string) (result Analysis) {
	defer func() {
		if r := recover(); r != nil {
			result = Analysis{AlwaysAsk: []string{fmt.Sprintf("the command could not be analysed (%v)", r)}}
		}
	}()
	return analyze(command)
}

// Covered reports whether grants cover the whole command line: nothing in it
// always asks, it runs at least one command, and every base is granted.
func (a Analysis) Covered(granted func(base string) bool) bool {
	if len(a.AlwaysAsk) > 0 || len(a.Bases) == 0 {
		return false
	}
	return len(a.Grantable(granted)) == 0
}

// Grantable is the bases not granted yet, in order: what "always allow" would
// grant. It is nil when something always asks, since no grant would help.
func (a Analysis) Grantable(granted func(base string) bool) []string {
	if len(a.AlwaysAsk) > 0 {
		return nil
	}
	var out []string
	for _, b := range a.Bases {
		if granted == nil || !granted(b) {
			out = append(out, b)
		}
	}
	return out
}

// analyze is Analyze without the panic guard, so the fuzz target sees panics.
func analyze(command string) Analysis {
	if strings.TrimSpace(command) == "" {
		return Analysis{AlwaysAsk: []string{"the command is empty"}}
	}
	parser := syntax.NewParser(syntax.Variant(syntax.LangBash))
	file, err := parser.Parse(strings.NewReader(command), "")
	if err != nil {
		return Analysis{AlwaysAsk: []string{"the shell parser cannot read it: " + err.Error()}}
	}
	if len(file.Stmts) == 0 {
		return Analysis{AlwaysAsk: []string{"the command is empty (only comments)"}}
	}
	var an analyzer
	syntax.Walk(file, an.visit)
	return Analysis{Bases: an.bases, AlwaysAsk: an.asks}
}

// analyzer collects bases and reasons while the AST is walked.
type analyzer struct {
	bases []string
	asks  []string
}

// base records a base command once, in order of first appearance.
func (an *analyzer) base(name string) {
	for _, b := range an.bases {
		if b == name {
			return
		}
	}
	an.bases = append(an.bases, name)
}

// ask records one reason no grant can cover the command, once.
func (an *analyzer) ask(format string, args ...any) {
	line := fmt.Sprintf(format, args...)
	for _, l := range an.asks {
		if l == line {
			return
		}
	}
	an.asks = append(an.asks, line)
}
