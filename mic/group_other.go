//go:build unix && !linux

package mic

import "syscall"

// groupAttr starts a recorder in a group of its own.
func groupAttr() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setpgid: true} }
