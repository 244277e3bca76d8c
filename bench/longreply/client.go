package main

import (
	"context"
	"net/http"
	"syscall"
	"time"

	"github.com/wispapp/wisp/bench/benchkit"
)

// tailWindow is how much of a stream's end the client keeps past its head: a
// 32,000-word reply's last frames are about 320 KB in Eliza's dialect.
const tailWindow = 4 << 20

// shot is one stream as the client read it.
type shot struct {
	runID string
	body  *capture
	wall  time.Duration // request → the end of the body (the done frame is its last)
	cpu   time.Duration // this process's CPU time meanwhile (see processCPU)
}

// processCPU is the user and system CPU time of this whole process: Wisp (or a
// floor), the fake model, SQLite, the kernel's work on loopback for all of
// them, and the client's reads, which copy the bytes and nothing more.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// get POSTs body to url and reads the SSE answer to its end, keeping its
// first keep bytes and its last tailWindow; nothing is parsed meanwhile.
func get(ctx context.Context, c *http.Client, url string, body []byte, keep int) (shot, error) {
	var s shot
	cpu, start := processCPU(), time.Now()
	resp, err := benchkit.OpenSSE(ctx, c, url, body)
	if err != nil {
		return s, err
	}
	defer resp.Body.Close()
	s.body, err = readCapture(resp.Body, keep, tailWindow)
	s.wall, s.cpu = time.Since(start), processCPU()-cpu
	s.runID = resp.Header.Get("X-Wisp-Run-Id")
	return s, err
}
