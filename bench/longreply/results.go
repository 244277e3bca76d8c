package main

import (
	"fmt"
	"time"

	"github.com/wispapp/wisp/bench/benchkit"
)

// results are every sample of one run of the driver.
type results struct {
	env   benchkit.Env
	cfg   config
	byLen map[int]*[kinds][]sample
	disk  diskResult

	checked  int      // streams and logs checked
	problems []string // correctness failures
	peakRSS  int64
	took     time.Duration
}

func newResults(cfg config) *results {
	r := &results{env: benchkit.InProcess("bench/longreply"), cfg: cfg, byLen: map[int]*[kinds][]sample{}}
	for _, n := range cfg.lengths {
		r.byLen[n] = &[kinds][]sample{}
	}
	return r
}

func (r *results) add(n int, k kind, s sample) { r.byLen[n][k] = append(r.byLen[n][k], s) }

func (r *results) problem(format string, a ...any) {
	r.problems = append(r.problems, fmt.Sprintf(format, a...))
}

// figure reads one number from a sample.
type figure func(sample) float64

func bytesOf(s sample) float64   { return float64(s.bytes) }
func wallOf(s sample) float64    { return ms(s.wall) }
func cpuOf(s sample) float64     { return ms(s.cpu) }
func parseOf(s sample) float64   { return ms(s.parseAll()) }
func compactOf(s sample) float64 { return ms(s.compactCPU) }
func cpuAndCompactOf(s sample) float64 {
	return ms(s.cpu + s.compactCPU)
}

func median(xs []sample, f figure) float64 {
	v := make([]float64, len(xs))
	for i, s := range xs {
		v[i] = f(s)
	}
	return benchkit.Median(v)
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// sizeText renders a byte count in B, KB, MB or GB (powers of 1,000).
func sizeText(b float64) string {
	switch {
	case b >= 1e9:
		return fmt.Sprintf("%.2f GB", b/1e9)
	case b >= 1e6:
		return fmt.Sprintf("%.1f MB", b/1e6)
	case b >= 1e3:
		return fmt.Sprintf("%.1f KB", b/1e3)
	}
	return fmt.Sprintf("%.0f B", b)
}

// timeText renders milliseconds, as seconds from 1 s up.
func timeText(v float64) string {
	switch {
	case v >= 10000:
		return fmt.Sprintf("%.1f s", v/1000)
	case v >= 1000:
		return fmt.Sprintf("%.2f s", v/1000)
	}
	return benchkit.Msec(v)
}
