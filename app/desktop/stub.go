//go:build !desktop || headless

package desktop

import (
	"context"
	"errors"
	"io/fs"

	"github.com/wispapp/wisp/app"
)

// HasDesktop reports whether this binary can open a window.
const HasDesktop = false

// Run is unavailable in a headless build.
func Run(context.Context, *app.App, fs.FS, []byte) error {
	return errors.New("this build of Wisp has no desktop window: run `wisp serve`, or build it with `make build`")
}
