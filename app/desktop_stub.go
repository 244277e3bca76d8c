//go:build !desktop || headless

package app

import (
	"context"
	"errors"
	"io/fs"
)

// HasDesktop reports whether this binary can open a window.
const HasDesktop = false

// RunDesktop is unavailable in a headless build.
func RunDesktop(context.Context, *App, fs.FS, []byte) error {
	return errors.New("this build of Wisp has no desktop window: run `wisp serve`, or build it with `make build`")
}
