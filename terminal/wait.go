package terminal

import (
	"errors"

	"golang.org/x/sys/unix"
)

// waitExited blocks until process pid has exited, without reaping it: as long as the
// zombie exists its pid cannot be reused, so signalling its process group is safe.
func waitExited(pid int) {
	var info unix.Siginfo
	for {
		err := unix.Waitid(unix.P_PID, pid, &info, unix.WEXITED|unix.WNOWAIT, nil)
		if !errors.Is(err, unix.EINTR) {
			return
		}
	}
}
