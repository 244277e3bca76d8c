package mcp

import "syscall"

// sysProcAttr: a group of its own, and SIGTERM when Wisp dies without stopping it.
func sysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGTERM}
}
