// Package shellgrant decides which shell command lines a per-base-command
// grant can cover, assuming the model asking to run them is hostile.
//
// It parses a command line with a Bash parser (mvdan.cc/sh/v3/syntax),
// collects the base of every simple command anywhere in it (lists, pipes,
// subshells, blocks, loop and branch bodies, command and process
// substitutions, assignment values, redirection targets, here-documents) and
// lists the reasons no grant can ever cover it: text Bash could read
// differently from the parser, anything whose effect cannot be read from the
// text (a command word that is not plain text, eval, functions), shell state
// a grant cannot see (PATH, set -k…), programs that run other programs or
// code, and options that write files. A base is a program's name, or for a
// program that runs code by design, one of its read-only forms ("git status",
// "python3 --version"). An analysis is bounded: by input size and nesting, by
// a time budget, and by its context. docs/approvals.md lists every rule with
// the escape it blocks.
//
// The package owns that decision only. It stores no grants and must import
// nothing of Wisp.
package shellgrant
