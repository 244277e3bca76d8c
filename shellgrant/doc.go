// Package shellgrant decides which shell command lines a per-base-command
// grant can cover.
//
// It parses a command line with the real Bash parser (mvdan.cc/sh/v3/syntax),
// collects the base command of every simple command anywhere in it (lists,
// pipes, subshells, blocks, loop and branch bodies, command and process
// substitutions, assignment values, redirection targets, here-documents) and
// lists the reasons no grant can ever cover it: anything whose effect cannot be
// read from the text (a command word that is not plain text, eval, functions),
// programs that run other programs or code given to them, privilege changers,
// environment changes and redirections that write files. docs/approvals.md
// lists every rule with the escape it blocks.
//
// The package owns that decision only. It stores no grants and must import
// nothing of Wisp.
package shellgrant
