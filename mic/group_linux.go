package mic

import "syscall"

// groupAttr starts a recorder in a group of its own, killed if Wisp dies.
func groupAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}
