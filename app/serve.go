package app

import (
	"context"
	"fmt"
	"io"
)

// Serve runs Wisp headless until ctx ends (SIGINT/SIGTERM) or the server fails,
// printing the URL on out once it listens.
func Serve(ctx context.Context, a *App, out io.Writer) error {
	if err := a.Start(ctx); err != nil {
		return err
	}
	fmt.Fprintf(out, "Wisp is listening on %s\n", a.URL())
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
