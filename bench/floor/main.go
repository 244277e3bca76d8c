// Command floor is the physical floor for Wisp's start-up benchmark: the
// smallest honest server of the same shape as `wisp serve`.
//
// It opens (creating if needed) <state-dir>/floor.db with mattn/go-sqlite3 in
// WAL mode, runs one trivial query so the database is really open, mounts
// melody on /ws, answers GET /api/status with a small JSON object, listens on
// 127.0.0.1 and prints the same "Wisp is listening on http://127.0.0.1:PORT"
// line as wisp. SIGINT or SIGTERM shuts it down cleanly with exit status 0.
//
// It deliberately does nothing else: the benchmark driver (bench/startup)
// reports Wisp's start-up time and idle RSS as ratios against this binary,
// built and measured in the same run. Built with -tags sdk it also links the
// two model SDKs Wisp links (Anthropic's and OpenAI's) and builds a client of
// each at start, as Wisp does: the difference between the two floors is what
// the SDKs cost.
package main

import (
	"context"
	"database/sql"
	"errors"
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"

	_ "github.com/mattn/go-sqlite3"
	"github.com/olahol/melody"
)

func main() {
	port := flag.Int("port", 0, "TCP port on 127.0.0.1 (0 picks a free one)")
	stateDir := flag.String("state-dir", "", "directory holding floor.db (required)")
	flag.Parse()
	if *stateDir == "" {
		fmt.Fprintln(os.Stderr, "floor: --state-dir is required")
		os.Exit(2)
	}
	if err := run(*port, *stateDir); err != nil {
		fmt.Fprintln(os.Stderr, "floor:", err)
		os.Exit(1)
	}
}

func run(port int, stateDir string) error {
	linkSDKs()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	if err := os.MkdirAll(stateDir, 0o700); err != nil {
		return err
	}
	dsn := "file:" + filepath.Join(stateDir, "floor.db") +
		"?_journal_mode=WAL&_busy_timeout=5000&_foreign_keys=on"
	db, err := sql.Open("sqlite3", dsn)
	if err != nil {
		return err
	}
	defer db.Close()
	var tables int
	if err := db.QueryRowContext(ctx, "SELECT count(*) FROM sqlite_master").Scan(&tables); err != nil {
		return fmt.Errorf("open database: %w", err)
	}

	ws := melody.New()
	started := time.Now()
	mux := http.NewServeMux()
	mux.HandleFunc("GET /api/status", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"state":"running","uptime":%d}`, time.Since(started).Milliseconds())
	})
	mux.HandleFunc("GET /ws", func(w http.ResponseWriter, r *http.Request) {
		_ = ws.HandleRequest(w, r)
	})

	ln, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", fmt.Sprint(port)))
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	fmt.Printf("Wisp is listening on http://%s\n", ln.Addr())

	select {
	case err := <-served:
		return err
	case <-ctx.Done():
	}
	shutdownCtx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_ = ws.Close()
	if err := srv.Shutdown(shutdownCtx); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
