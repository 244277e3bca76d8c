// Command upload is Wisp's benchmark of attachment uploads: the throughput of a
// 64 MiB body through the real route (POST /api/attachments: the guards, the
// streaming copy to a temporary file while it is hashed and sniffed, the fsync and
// the rename into its blob path, the rows) against the floor, a bare net/http
// handler that io.Copy's the body to a file in the same folder.
//
// Wisp runs inside the driver (benchkit.StartApp), the floor beside it on loopback;
// the same client sends the same bytes from memory to both, rounds alternating
// which goes first. Each round's body differs in its first bytes, so every upload
// is a new blob.
//
// Usage (see `make bench`):
//
//	go run -tags sqlite_fts5 ./bench/upload --out BENCHMARKS.md
package main

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/binary"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/wispapp/wisp/bench/benchkit"
)

type config struct {
	mib, rounds, warmup int
	out, profile        string
}

func main() {
	var cfg config
	flag.IntVar(&cfg.mib, "mib", 64, "the body's size in MiB")
	flag.IntVar(&cfg.rounds, "rounds", 12, "recorded uploads of each case")
	flag.IntVar(&cfg.warmup, "warmup", 2, "unrecorded rounds before them")
	flag.StringVar(&cfg.out, "out", "", "Markdown file whose upload section is replaced (e.g. BENCHMARKS.md); empty: stdout only")
	flag.StringVar(&cfg.profile, "cpuprofile", "", "write a CPU profile to this file")
	flag.Parse()
	benchkit.Main("upload", cfg.profile, func(ctx context.Context, tmp string) error { return run(ctx, cfg, tmp) })
}

// result is one case's throughputs, MiB/s, one per round.
type result struct{ wisp, floor []float64 }

func run(ctx context.Context, cfg config, tmp string) error {
	state := filepath.Join(tmp, "state")
	if err := os.MkdirAll(state, 0o700); err != nil {
		return err
	}
	// Room for the run's uploads: every round is a new blob.
	total := (cfg.rounds + cfg.warmup + 1) * cfg.mib * 2
	conf := fmt.Sprintf(`{"attachments": {"fileMiB": %d, "totalMiB": %d}}`, cfg.mib+1, total)
	if err := os.WriteFile(filepath.Join(state, "wisp.json"), []byte(conf), 0o600); err != nil {
		return err
	}
	a, err := benchkit.StartApp(ctx, state, nil)
	if err != nil {
		return err
	}
	defer a.Stop()
	floorURL, stopFloor, err := startFloor(filepath.Join(state, "attachments"))
	if err != nil {
		return err
	}
	defer stopFloor()
	client := benchkit.NewHTTPClient()
	body := make([]byte, cfg.mib<<20)
	rand.Read(body)
	var res result
	for i := range cfg.warmup + cfg.rounds {
		binary.BigEndian.PutUint64(body, uint64(i)) // a new blob each round
		cases := []struct {
			url string
			out *[]float64
		}{{a.URL() + "/api/attachments?name=bench.bin", &res.wisp}, {floorURL, &res.floor}}
		if i%2 == 1 {
			cases[0], cases[1] = cases[1], cases[0]
		}
		for _, c := range cases {
			rate, err := upload(ctx, client, c.url, body)
			if err != nil {
				return err
			}
			if i >= cfg.warmup {
				*c.out = append(*c.out, rate)
			}
		}
	}
	return benchkit.Publish(cfg.out, "upload", intro, report(cfg, res))
}

// upload posts body and answers the throughput in MiB/s.
func upload(ctx context.Context, c *http.Client, url string, body []byte) (float64, error) {
	r, err := http.NewRequestWithContext(ctx, "POST", url, bytes.NewReader(body))
	if err != nil {
		return 0, err
	}
	r.Header.Set("Content-Type", "application/octet-stream")
	start := time.Now()
	resp, err := c.Do(r)
	if err != nil {
		return 0, err
	}
	data, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusCreated {
		return 0, fmt.Errorf("%s: %d %s", url, resp.StatusCode, data)
	}
	return float64(len(body)) / (1 << 20) / time.Since(start).Seconds(), nil
}

// startFloor serves the floor: each request's body copied to a new file in dir,
// then removed (Wisp keeps its blobs; the floor's disk use stays flat).
func startFloor(dir string) (string, func(), error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", nil, err
	}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		f, err := os.CreateTemp(dir, "floor-*")
		if err != nil {
			http.Error(w, err.Error(), 500)
			return
		}
		defer os.Remove(f.Name())
		_, err = io.Copy(f, r.Body)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			http.Error(w, err.Error(), 500)
			return
		}
		w.WriteHeader(http.StatusCreated)
	})}
	go func() {
		if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			fmt.Fprintln(os.Stderr, "floor:", err)
		}
	}()
	return "http://" + ln.Addr().String() + "/", func() { srv.Close() }, nil
}

const intro = `## Upload: a 64 MiB attachment against a bare copy to disk

An upload (POST /api/attachments, docs/attachments.md) streams its body to a temporary
file while it is hashed (SHA-256) and sniffed beside the copy, bounded by the file limit,
its writeback started every 8 MiB, then syncs it and renames it to its blob path, and
records the blob and the attachment. Measured in
the driver's process: the real route against the floor, a bare net/http handler that
io.Copy's the body to a file in the same folder (no hash, no sync), the same client
sending the same bytes from memory, rounds alternating. Target (issue 31): ≥ 0.7× the
floor's throughput. Driver: ` + "`bench/upload`" + ` (` + "`make bench`" + `).
`

func report(cfg config, res result) string {
	var b strings.Builder
	env := benchkit.InProcess("bench/upload")
	fmt.Fprintf(&b, "%s · a %d MiB body of random bytes · %d recorded uploads of each after %d\n\n",
		env.Line(), cfg.mib, cfg.rounds, cfg.warmup)
	b.WriteString("| case | median | slowest | ratio to the floor (median) |\n|---|--:|--:|--:|\n")
	floor, wisp := benchkit.Median(res.floor), benchkit.Median(res.wisp)
	fmt.Fprintf(&b, "| floor: bare handler, io.Copy to a file | %.0f MiB/s | %.0f MiB/s | 1.00× |\n", floor, slowest(res.floor))
	fmt.Fprintf(&b, "| Wisp: POST /api/attachments | %.0f MiB/s | %.0f MiB/s | %.2f× |\n", wisp, slowest(res.wisp), wisp/floor)
	fmt.Fprintf(&b, "\nTarget: upload throughput ≥ 0.7× the floor's (median): %s (%.2f×).\n", benchkit.Verdict(wisp/floor >= 0.7), wisp/floor)
	return b.String()
}

func slowest(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	m := xs[0]
	for _, x := range xs {
		m = min(m, x)
	}
	return m
}
