package doctext

import "github.com/landlock-lsm/go-landlock/landlock"

// confineChild takes from the child, every thread of it, what reading a PDF it
// already holds open never needs: opening any file, TCP binds and connects, UDP
// and UNIX sockets, signals and abstract sockets beyond itself (Landlock, as much
// of it as the kernel has; nothing where it has none).
func confineChild() error {
	return landlock.V11.BestEffort().Restrict()
}
