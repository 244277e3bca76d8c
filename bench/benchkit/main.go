package benchkit

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"
)

// Main runs a driver: until SIGINT or SIGTERM, with a CPU profile written to profile
// (if set) and a scratch folder that is removed afterwards. An error is printed as
// "bench/<name>: …" and exits 1.
func Main(name, profile string, run func(ctx context.Context, tmp string) error) {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := scratch(name, profile, func(tmp string) error { return run(ctx, tmp) })
	stop()
	if err != nil {
		fmt.Fprintf(os.Stderr, "bench/%s: %v\n", name, err)
		os.Exit(1)
	}
}

func scratch(name, profile string, fn func(tmp string) error) error {
	stopProfile, err := StartCPUProfile(profile)
	if err != nil {
		return err
	}
	defer stopProfile()
	tmp, err := os.MkdirTemp("", "wisp-bench-"+name+"-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	return fn(tmp)
}
