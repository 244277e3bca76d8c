//go:build desktop && !headless && !linux

package desktop

import "errors"

// showRunningWindow is not built for this system: a second launch is refused.
func showRunningWindow(string) error {
	return errors.New("handing a launch to the running window is built for Linux only")
}
