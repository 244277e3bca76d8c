//go:build desktop && !headless && !linux

package desktop

import (
	"context"

	wailsruntime "github.com/wailsapp/wails/v2/pkg/runtime"
)

// quitWindowLoop ends the window's main loop through Wails (on Windows it posts the
// quit to the UI thread; macOS is not built or tested here).
func quitWindowLoop(wctx context.Context) { wailsruntime.Quit(wctx) }
