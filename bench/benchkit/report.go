package benchkit

import (
	"fmt"
	"os"
	"runtime/pprof"
)

// Verdict renders whether a target was met.
func Verdict(ok bool) string {
	if ok {
		return "pass"
	}
	return "**MISSED**"
}

// Msec renders milliseconds: two decimals under 1 ms, one above.
func Msec(v float64) string {
	if v < 1 {
		return fmt.Sprintf("%.2f ms", v)
	}
	return fmt.Sprintf("%.1f ms", v)
}

// Thousands renders a number rounded to a whole, with thousands separators.
func Thousands(v float64) string {
	s := fmt.Sprintf("%.0f", v)
	for i := len(s) - 3; i > 0 && s[i-1] != '-'; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// StartCPUProfile writes a CPU profile to path (nothing when path is empty) until
// the returned stop is called.
func StartCPUProfile(path string) (stop func(), err error) {
	if path == "" {
		return func() {}, nil
	}
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, err
	}
	return func() {
		pprof.StopCPUProfile()
		f.Close()
	}, nil
}
