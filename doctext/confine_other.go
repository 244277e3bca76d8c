//go:build !linux

package doctext

// confineChild: Landlock is Linux's; elsewhere the child has its rlimits only.
func confineChild() error { return nil }
