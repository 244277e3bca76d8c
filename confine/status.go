package confine

import (
	"fmt"
	"strings"
)

type status struct {
	level  Level
	reason string
}

// Status is how far processes started now are confined, and why not further (or,
// when fully, what that costs them), in words for the user.
func (c *Confiner) Status() (Level, string) {
	s := c.status.Load()
	return s.level, s.reason
}

// updateStatusLocked says what a process started now gets.
func (c *Confiner) updateStatusLocked() {
	s := &status{level: None}
	switch {
	case c.none != "":
		s.reason = c.none + ": agent commands and MCP servers run unconfined."
	case c.mode == Off:
		s.reason = "Confinement is turned off: agent commands and MCP servers run unconfined."
	case c.failed != nil:
		s.reason = fmt.Sprintf("Confinement failed (%v): agent commands and MCP servers run unconfined.", c.failed)
	default:
		s.level, s.reason = c.coverage()
	}
	c.status.Store(s)
}

// coverage is the level and reason with Landlock at work.
func (c *Confiner) coverage() (Level, string) {
	var gaps []string
	switch {
	case c.abi < 4:
		gaps = append(gaps, fmt.Sprintf("this kernel's Landlock (ABI %d) cannot restrict network connections (Linux 6.7 or later can), so they can connect to Wisp's port", c.abi))
	case c.mode == Paths:
		gaps = append(gaps, "network rules are turned off, so they can connect to Wisp's port")
	}
	gaps = append(gaps, c.plan.problems...)
	if len(gaps) > 0 {
		return Partial, "Agent commands and MCP servers are confined by Landlock, but " + strings.Join(gaps, "; ") + "."
	}
	reason := fmt.Sprintf("Agent commands and MCP servers can neither read nor change Wisp's state folder and config file, "+
		"nor connect to its port (Landlock ABI %d).", c.abi)
	if len(c.plan.writable) > 0 {
		reason += " They cannot add or remove entries directly in " + strings.Join(c.plan.writable, ", ") + "."
	}
	return Full, reason
}
