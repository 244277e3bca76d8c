package app

import (
	"context"
	"fmt"
	"io"
)

// Serve runs Wisp headless until ctx ends (SIGINT/SIGTERM) or the server fails.
// Once it listens it prints two lines on out: where it listens (scripts wait for
// that one), then the URL to open in a browser, with the API token in its fragment.
func Serve(ctx context.Context, a *App, out io.Writer) error {
	if err := a.Start(ctx); err != nil {
		return err
	}
	fmt.Fprintf(out, "Wisp is listening on %s\n", a.URL())
	fmt.Fprintf(out, "Wisp is running: open %s\n", a.OpenURL())
	var runErr error
	select {
	case <-ctx.Done():
	case runErr = <-a.Done():
	}
	if err := a.Stop(); err != nil && runErr == nil {
		runErr = err
	}
	return runErr
}
