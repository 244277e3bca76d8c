package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"syscall"
	"time"
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
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return s, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "text/event-stream")
	cpu, start := processCPU(), time.Now()
	resp, err := c.Do(req)
	if err != nil {
		return s, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		msg, _ := io.ReadAll(io.LimitReader(resp.Body, 1024))
		return s, fmt.Errorf("POST %s: status %d: %s", url, resp.StatusCode, bytes.TrimSpace(msg))
	}
	s.body, err = readCapture(resp.Body, keep, tailWindow)
	s.wall, s.cpu = time.Since(start), processCPU()-cpu
	s.runID = resp.Header.Get("X-Wisp-Run-Id")
	return s, err
}
