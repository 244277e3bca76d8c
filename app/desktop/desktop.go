//go:build desktop && !headless

package desktop

import (
	"context"
	"fmt"
	"io/fs"
	"time"

	"github.com/wailsapp/wails/v2"
	"github.com/wailsapp/wails/v2/pkg/logger"
	"github.com/wailsapp/wails/v2/pkg/options"
	"github.com/wailsapp/wails/v2/pkg/options/assetserver"
	"github.com/wailsapp/wails/v2/pkg/options/linux"
	wailsruntime "github.com/wailsapp/wails/v2/pkg/runtime"

	"github.com/wispapp/wisp/app"
)

// HasDesktop reports whether this binary can open a window.
const HasDesktop = true

// Desktop is bound into the window as window.go.desktop.Desktop. It only hands the page
// its connection: everything else goes over HTTP and /ws like any other client.
type Desktop struct {
	app *app.App
	win *window // its Wails context, for the file dialog
	mic *Mic    // the microphone (mic_wails.go)
}

// GetConnection returns the API's base URL, the /ws URL and the per-launch token.
func (d *Desktop) GetConnection() app.Connection { return d.app.Connection() }

// signalQuitGrace is how long Wails' own signal handling gets to close the window.
const signalQuitGrace = 2 * time.Second

// wailsWindow is the Wails runtime as the window's handlers use it (window.go).
type wailsWindow struct{}

func (wailsWindow) WindowShow(ctx context.Context)       { wailsruntime.WindowShow(ctx) }
func (wailsWindow) WindowUnminimise(ctx context.Context) { wailsruntime.WindowUnminimise(ctx) }

// Run starts the services, shows the window and blocks until the window is
// closed or ctx ends (SIGINT/SIGTERM); then it stops everything. If a desktop Wisp
// already runs on the state folder, its window is brought forward instead.
func Run(ctx context.Context, a *app.App, ui fs.FS, icon []byte) error {
	log := a.Logger()
	if err := a.Start(ctx); err != nil {
		return handOver(err, a.StateDir(), log, showRunningWindow)
	}
	win := &window{rt: wailsWindow{}, log: log}
	sys := newSystem(wailsSystem{}, log)
	microphone := newMic(micOptions{Transcriber: a, Events: wailsEvents{win}, Log: log})
	log.Info("desktop window opening", "api", a.URL())
	quit := make(chan struct{}) // closed when the window's loop has ended
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
			win.started(wctx)
			sys.started(wctx)
			go sys.connectNotifications(wctx)
			go func() {
				select {
				case <-ctx.Done(): // SIGINT/SIGTERM
				case <-quit:
					return
				}
				// Wails handles these signals itself and ends the loop from its own goroutine;
				// a second quit from another thread raced with the window's teardown and
				// crashed the process. So only if the loop is still running after a grace
				// period does Wisp end it, on the GTK thread.
				select {
				case <-quit:
				case <-time.After(signalQuitGrace):
					log.Warn("window still open after the signal; closing it")
					quitWindowLoop(wctx)
				}
			}()
		},
		// A second launch on this state folder reaches this window (see handOver).
		SingleInstanceLock: &options.SingleInstanceLock{
			UniqueId:               instanceID(a.StateDir()),
			OnSecondInstanceLaunch: func(d options.SecondInstanceData) { win.secondLaunch(d.Args) },
		},
		OnShutdown: func(ctx context.Context) {
			microphone.Close()
			sys.stopped(ctx)
		},
		Bind:  []any{&Desktop{app: a, win: win, mic: microphone}, sys},
		Linux: &linux.Options{Icon: icon, ProgramName: "wisp", WebviewGpuPolicy: linux.WebviewGpuPolicyOnDemand},
	})
	close(quit)
	stopErr := a.Stop()
	if runErr != nil {
		return fmt.Errorf("desktop window: %w", runErr)
	}
	return stopErr
}
