// Command emote is Wisp's emote broadcast benchmark: the time from
// POST /api/emote to the emote frame at each of several /ws clients, next to a
// bare broadcast server measured in the same run.
//
// It starts a real Wisp App in this process on 127.0.0.1 and connects 10
// WebSocket clients to /ws (each ready once its first status frame came).
// One sample is one POST /api/emote {"emoteId":"wave"}, timed from just before
// the request to the moment each client has read the frame
//
//	{"type":"emote","emoteId":"wave","glbPath":"/emotes/wave.glb","duration":2.5,"loop":false}
//
// and to the moment the last of them has. Every client reads its socket
// continuously on its own goroutine and skips other frames (status).
//
// The floor is a bare net/http server in this process, on its own listener,
// with melody (the library Wisp's hub is built on) on /ws and 10 clients of
// its own: POST /emote reads the body, hands the same frame, encoded once,
// to melody's Broadcast and answers {"ok":true}. What Wisp adds on top of it
// is its request handling (guard, JSON decoding, catalog lookup, JSON
// encoding of the frame) and its hub's fan-out. For context the same floor is
// also triggered by calling Broadcast directly, with no HTTP at all. The three
// take turns, one sample each in a rotating order, after unrecorded warm-up
// samples.
//
// Every frame is checked: each client gets exactly one per sample, equal to
// the one above, and nothing is left over at the end.
//
// The result is printed on stdout and, with --out, written between the
// "<!-- bench:emote:begin -->" and "<!-- bench:emote:end -->" markers of
// BENCHMARKS.md; the rest of that file is kept. The exit status is non-zero
// when the harness cannot measure or a check fails; a missed target is
// printed but is not a failure.
//
// Usage (see `make bench`):
//
//	go run ./bench/emote --out BENCHMARKS.md
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/wispapp/wisp/bench/benchkit"
)

type config struct {
	clients      int           // WebSocket clients per server
	runs, warmup int           // recorded samples per side, and unrecorded ones before them
	pause        time.Duration // between two samples
	out, profile string
}

func main() {
	var cfg config
	flag.IntVar(&cfg.clients, "clients", 10, "WebSocket clients connected to each server")
	flag.IntVar(&cfg.runs, "runs", 500, "recorded broadcasts of Wisp and of each floor")
	flag.IntVar(&cfg.warmup, "warmup", 50, "unrecorded broadcasts of each before them")
	flag.DurationVar(&cfg.pause, "pause", time.Millisecond, "pause after every sample, once all clients have the frame")
	flag.StringVar(&cfg.out, "out", "", "Markdown file whose emote section is replaced (e.g. BENCHMARKS.md); empty: stdout only")
	flag.StringVar(&cfg.profile, "cpuprofile", "", "write a CPU profile of the whole run (Wisp, floor and clients) to this file")
	flag.Parse()
	if cfg.clients < 1 || cfg.runs < 1 || cfg.warmup < 0 || cfg.pause < 0 || flag.NArg() > 0 {
		flag.Usage()
		os.Exit(2)
	}
	benchkit.Main("emote", cfg.profile, func(ctx context.Context, tmp string) error { return run(ctx, cfg, tmp) })
}

func run(ctx context.Context, cfg config, tmp string) error {

	w, err := startWisp(ctx, filepath.Join(tmp, "wisp"), cfg.clients)
	if err != nil {
		return err
	}
	defer w.stop()
	f, err := startFloor(ctx, cfg.clients)
	if err != nil {
		return err
	}
	defer f.stop()

	res := &results{env: benchkit.InProcess("bench/emote"), cfg: cfg}
	res.wisp, res.floor, res.direct = w.side(), f.side(), f.directSide()
	fmt.Fprintf(os.Stderr, "emote: %d broadcasts each to %d clients after %d warm-up...\n", cfg.runs, cfg.clients, cfg.warmup)
	if err := measure(ctx, cfg, res.sides()); err != nil {
		return err
	}

	return benchkit.Publish(cfg.out, "emote", sectionIntro, res.markdown())
}
