package shellgrant

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"mvdan.cc/sh/v3/syntax"
)

// Analysis is what a command line holds, for grants.
type Analysis struct {
	Bases     []string // base command of every simple command, in order of first appearance, no repeats
	AlwaysAsk []string // why no grant can ever cover it: one readable line each (empty: grants may cover it)
}

// Budget is the most time one analysis may take. A command line that needs
// more, or whose ctx ends first, always asks.
const Budget = 50 * time.Millisecond

// Reasons given when the analysis stops early.
const (
	tooComplex = "the command is too complex to check"
	stopped    = "the check was stopped"
)

// Analyze parses command as Bash and reports its bases and the reasons no
// grant can cover it. It never panics and returns within about Budget, or
// soon after ctx ends: a command it cannot parse, or cannot check in time,
// always asks.
func Analyze(ctx context.Context, command string) Analysis {
	return analyzeWithin(ctx, command, Budget)
}

// analyzeWithin is Analyze with another budget (tests on a loaded machine use
// a longer one where timing is not what they test).
func analyzeWithin(ctx context.Context, command string, budget time.Duration) (result Analysis) {
	defer func() {
		if r := recover(); r != nil {
			result = asks(fmt.Sprintf("the command could not be analysed (%v)", r))
		}
	}()
	return analyze(ctx, command, budget)
}

func asks(reason string) Analysis { return Analysis{AlwaysAsk: []string{reason}} }

// analyze is Analyze without the panic guard, so the fuzz target sees panics.
func analyze(ctx context.Context, command string, budget time.Duration) Analysis {
	if strings.TrimSpace(command) == "" {
		return asks("the command is empty")
	}
	if reason := checkInput(command); reason != "" {
		return asks(reason)
	}
	c := newClock(ctx, budget)
	parser := syntax.NewParser(syntax.Variant(syntax.LangBash), syntax.KeepComments(true))
	file, err := parser.Parse(c.reader(command), "")
	if c.over() {
		return asks(c.reason())
	}
	if err != nil {
		return asks("the shell parser cannot read it: " + shorten(err.Error()))
	}
	if len(file.Stmts) == 0 {
		return asks("the command is empty (only comments)")
	}
	an := analyzer{clock: c}
	syntax.Walk(file, an.visit)
	if c.over() {
		return asks(c.reason())
	}
	if reason := an.checkContinuations(command); reason != "" {
		an.ask("%s", reason)
	}
	return Analysis{Bases: an.bases, AlwaysAsk: an.asks}
}

// analyzer collects bases and reasons while the AST is walked.
type analyzer struct {
	bases  []string
	asks   []string
	clock  *clock
	depth  int   // of the node being visited
	substs int   // $(…) the node is in
	open   []int // depths at which those $(…) end

	quoted   []span // single-quoted text
	heredocs []span // here-document bodies
}

// base records a base command once, in order of first appearance.
func (an *analyzer) base(name string) {
	if !slices.Contains(an.bases, name) {
		an.bases = append(an.bases, name)
	}
}

// maxReasons is how many reasons are kept: the card shows them all, and one
// is enough to ask.
const maxReasons = 12

// ask records one reason no grant can cover the command, once.
func (an *analyzer) ask(format string, args ...any) {
	if len(an.asks) >= maxReasons {
		return
	}
	line := fmt.Sprintf(format, args...)
	if !slices.Contains(an.asks, line) {
		an.asks = append(an.asks, line)
	}
}
