// Package benchkit holds helpers shared by Wisp's benchmark drivers
// (bench/startup, bench/chat, bench/terminal, bench/emote, bench/config,
// bench/proactive): summary statistics over samples, the header line of a
// report (date, commit, binary measured and its size, Go, machine) and its
// figures, the HTTP and WebSocket clients the drivers measure with, starting
// Wisp inside a driver, and writing results into a marked section of
// BENCHMARKS.md. Only StartApp imports Wisp (its app package).
package benchkit

import (
	"bufio"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// Median returns the middle value of xs (the mean of the two middle values
// when len(xs) is even), or NaN for an empty slice. xs is not modified.
func Median(xs []float64) float64 {
	n := len(xs)
	if n == 0 {
		return math.NaN()
	}
	s := slices.Sorted(slices.Values(xs))
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

// Percentile returns the p-th percentile (0 < p <= 100) of xs by the
// nearest-rank method: the smallest value such that at least p% of the
// samples are less than or equal to it. It returns NaN for an empty slice.
// xs is not modified.
func Percentile(xs []float64, p float64) float64 {
	n := len(xs)
	if n == 0 {
		return math.NaN()
	}
	s := slices.Sorted(slices.Values(xs))
	rank := int(math.Ceil(p / 100 * float64(n)))
	return s[min(max(rank, 1), n)-1]
}

// Ms is d in milliseconds.
func Ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// Tail is a latency's median and 99th percentile, in ms.
type Tail struct{ P50, P99 float64 }

// TailOf is the median and 99th percentile of xs (ms).
func TailOf(xs []float64) Tail { return Tail{P50: Percentile(xs, 50), P99: Percentile(xs, 99)} }

// ReplaceSection puts block between the markers
//
//	<!-- bench:NAME:begin -->
//	<!-- bench:NAME:end -->
//
// in the Markdown file at path and keeps everything else. A missing file
// starts as "# Benchmarks"; when the markers are missing, intro and the
// marked section are appended. Only one marker, or the end marker before the
// begin marker, is an error, and the file is left as it was.
func ReplaceSection(path, name, intro, block string) error {
	begin, end := "<!-- bench:"+name+":begin -->", "<!-- bench:"+name+":end -->"
	doc := "# Benchmarks\n"
	b, err := os.ReadFile(path)
	switch {
	case err == nil:
		doc = string(b)
	case !errors.Is(err, fs.ErrNotExist):
		return err
	}
	section := begin + "\n" + block + "\n" + end
	i, j := strings.Index(doc, begin), strings.Index(doc, end)
	switch {
	case i >= 0 && j > i:
		doc = doc[:i] + section + doc[j+len(end):]
	case i < 0 && j < 0:
		doc = strings.TrimRight(doc, "\n") + "\n\n" + intro + section + "\n"
	default:
		return fmt.Errorf("%s: %s markers are unbalanced; fix them by hand", path, name)
	}
	return WriteAtomic(path, []byte(doc))
}

// Publish prints a driver's section on stdout and, when out is set, writes it
// into that Markdown file between the section's markers (ReplaceSection).
func Publish(out, name, intro, block string) error {
	fmt.Println(block)
	if out == "" {
		return nil
	}
	if err := ReplaceSection(out, name, intro, block); err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "wrote %s\n", out)
	return nil
}

// WriteAtomic writes data to path with mode 0644 through a temporary file in
// the same directory, renamed over path, so that readers see either the old
// contents or the new, never a partial file.
func WriteAtomic(path string, data []byte) error {
	f, err := os.CreateTemp(filepath.Dir(path), ".bench-*")
	if err != nil {
		return err
	}
	defer os.Remove(f.Name())
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	if err := f.Chmod(0o644); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Rename(f.Name(), path)
}

// Host returns the kernel release and CPU model of this machine ("unknown" when
// /proc cannot say).
func Host() (kernel, cpu string) {
	kernel, cpu = "unknown", "unknown"
	if b, err := os.ReadFile("/proc/sys/kernel/osrelease"); err == nil {
		kernel = strings.TrimSpace(string(b))
	}
	f, err := os.Open("/proc/cpuinfo")
	if err != nil {
		return kernel, cpu
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if k, v, ok := strings.Cut(sc.Text(), ":"); ok && strings.TrimSpace(k) == "model name" {
			return kernel, strings.TrimSpace(v)
		}
	}
	return kernel, cpu
}
