//go:build desktop && !headless

package app

import (
	"context"
	"fmt"
	"io/fs"

	"github.com/wailsapp/wails/v2"
	"github.com/wailsapp/wails/v2/pkg/logger"
	"github.com/wailsapp/wails/v2/pkg/options"
	"github.com/wailsapp/wails/v2/pkg/options/assetserver"
	"github.com/wailsapp/wails/v2/pkg/options/linux"
	wailsruntime "github.com/wailsapp/wails/v2/pkg/runtime"
)

// HasDesktop reports whether this binary can open a window.
const HasDesktop = true

// Desktop is bound into the window as window.go.app.Desktop. It only hands the page
// its connection: everything else goes over HTTP and /ws like any other client.
type Desktop struct{ app *App }

// GetConnection returns the API's base URL, the /ws URL and the per-launch token.
func (d *Desktop) GetConnection() Connection { return d.app.Connection() }

// RunDesktop starts the services, shows the window and blocks until the window is
// closed or ctx ends (SIGINT/SIGTERM); then it stops everything.
func RunDesktop(ctx context.Context, a *App, ui fs.FS, icon []byte) error {
	if err := a.Start(ctx); err != nil {
		return err
	}
	a.log.Info("desktop window opening", "api", a.URL())
	quit := make(chan struct{})
	defer close(quit)
	runErr := wails.Run(&options.App{
		Title:              "Wisp",
		Width:              1200,
		Height:             800,
		MinWidth:           720,
		MinHeight:          480,
		BackgroundColour:   &options.RGBA{R: 17, G: 19, B: 26, A: 255},
		AssetServer:        &assetserver.Options{Assets: ui},
		LogLevel:           logger.WARNING,
		LogLevelProduction: logger.ERROR,
		OnStartup: func(wctx context.Context) {
			go func() { // a signal closes the window the same way the user would
				select {
				case <-ctx.Done():
					wailsruntime.Quit(wctx)
				case <-quit:
				}
			}()
		},
		Bind:  []any{&Desktop{app: a}},
		Linux: &linux.Options{Icon: icon, ProgramName: "wisp", WebviewGpuPolicy: linux.WebviewGpuPolicyOnDemand},
	})
	stopErr := a.Stop()
	if runErr != nil {
		return fmt.Errorf("desktop window: %w", runErr)
	}
	return stopErr
}
