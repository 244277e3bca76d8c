//go:build !linux

package confine

import (
	"errors"
	"runtime"
)

// Landlock is Linux's: elsewhere processes start unconfined, and nothing below runs.

func detect() (int, string) {
	return 0, "Landlock is Linux's, and this is " + runtime.GOOS
}

var errNotLinux = errors.New("confinement needs Linux")

type pathLayer struct{ fd int }

func (*pathLayer) stale() bool { return true }

func buildPaths(plan, int) (*pathLayer, error) { return nil, errNotLinux }

type netBuild struct {
	done chan struct{}
	fd   int
	err  error
}

func buildNet([]int) (int, error) { return -1, errNotLinux }

func closeFD(int) {}

type spawner struct {
	paths *pathLayer
	net   *netBuild
}

func newSpawner(*pathLayer, *netBuild) (*spawner, error) { return nil, errNotLinux }
func (*spawner) do(func() error) error                   { return errNotLinux }
func (*spawner) hold()                                   {}
func (*spawner) release()                                {}
func (*spawner) retire()                                 {}
func (*Confiner) hideProcess()                           {}
