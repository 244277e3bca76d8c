// Command wisp is the Wisp desktop assistant: `wisp` opens the desktop window,
// `wisp serve` runs headless and serves the same UI to a browser, `wisp version`
// prints the version. main only wires; the app package does the work.
package main

import (
	"context"
	_ "embed"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/wispapp/wisp/app"
	"github.com/wispapp/wisp/app/desktop"
	"github.com/wispapp/wisp/doctext"
	"github.com/wispapp/wisp/frontend"
	"github.com/wispapp/wisp/secrets"
)

// version is set at build time with -ldflags "-X main.version=...".
var version = "dev"

//go:embed build/appicon.png
var icon []byte

const usage = `Wisp: a fast, light desktop assistant.

Usage:
  wisp [flags]          open the desktop window
  wisp serve [flags]    run headless and serve the UI at http://127.0.0.1:2138; it prints
                        the URL to open, with the API token (kept in <state>/api-token)
  wisp version          print the version
  wisp help             show this help

Flags:
  --host HOST        address to listen on (default 127.0.0.1; anything else needs an API token)
  --port N           port to listen on (default 2138, or WISP_PORT; 0 picks a free port)
  --state-dir DIR    where wisp.json, wisp.db and api-token live (default $WISP_STATE_DIR,
                     $XDG_STATE_HOME/wisp or ~/.local/state/wisp)
  --verbose          log debug detail

Environment: WISP_PORT, WISP_STATE_DIR, WISP_CONFIG_PATH, WISP_API_TOKEN (instead of
the kept token), WISP_ALLOW_WS_QUERY_TOKEN=1, WISP_LOG_LEVEL=debug|info|warn|error.
`

func main() {
	doctext.RunChildIfAsked() // a child reading a PDF for its parent exits here
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	cmd := "desktop"
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		cmd, args = args[0], args[1:]
	}
	switch cmd {
	case "version":
		fmt.Fprintln(stdout, "wisp", version)
		return 0
	case "help":
		fmt.Fprint(stdout, usage)
		return 0
	case "desktop", "serve":
	default:
		fmt.Fprintf(stderr, "wisp: unknown command %q\n\n%s", cmd, usage)
		return 2
	}

	fs := flag.NewFlagSet("wisp", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	host := fs.String("host", "", "")
	port := fs.Int("port", -1, "")
	stateDir := fs.String("state-dir", "", "")
	verbose := fs.Bool("verbose", false, "")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprint(stdout, usage)
			return 0
		}
		fmt.Fprintf(stderr, "wisp: %v\n\n%s", err, usage)
		return 2
	}
	if *port < -1 || *port > 65535 {
		fmt.Fprintf(stderr, "wisp: --port must be 0-65535\n")
		return 2
	}

	log := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: logLevel(*verbose)}))
	slog.SetDefault(log)
	a, err := app.New(app.Options{
		Host: *host, Port: *port, StateDir: *stateDir, Getenv: os.Getenv,
		UI: frontend.Dist(), Logger: log, Desktop: cmd == "desktop", KeepToken: cmd == "serve", Version: version,
		Keyring: secretService, LoginPATH: app.LoginPATH(log),
	})
	if err != nil {
		fmt.Fprintf(stderr, "wisp: %v\n", err)
		return 1
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	if cmd == "serve" {
		err = app.Serve(ctx, a, stdout)
	} else {
		err = desktop.Run(ctx, a, frontend.Dist(), icon)
	}
	if err != nil {
		fmt.Fprintf(stderr, "wisp: %v\n", err)
		return 1
	}
	return 0
}

// secretService is the desktop's keyring (the Secret Service on the session bus),
// keeping the secrets of the config file at configPath.
func secretService(configPath string) secrets.Keyring {
	return secrets.NewSecretService(secrets.Options{Service: secrets.ServiceFor(configPath)})
}

func logLevel(verbose bool) slog.Level {
	if verbose {
		return slog.LevelDebug
	}
	var l slog.Level
	if err := l.UnmarshalText([]byte(os.Getenv("WISP_LOG_LEVEL"))); err != nil {
		return slog.LevelInfo
	}
	return l
}
