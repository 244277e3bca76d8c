package tokens

import (
	"math"
	"sync"
)

// The bounds of a Calibration.
const (
	MinFactor = 1.0
	MaxFactor = 3.0
	// minObserved is the smallest estimate worth learning from: on a few tokens the
	// framing a provider adds dominates the ratio.
	minObserved = 64
	// maxRatio rejects observations whose ratio is absurd either way (a provider
	// that counts something else, or a cached prefix it did not report).
	maxRatio = 10.0
)

// Calibration learns how far a local estimate is from what a provider reports for
// the same request, and scales later estimates by it. Its factor starts at 1 and
// stays within [MinFactor, MaxFactor]: it only ever makes an estimate larger. It
// rises quickly when the provider counts more (an under-estimate risks an error) and
// falls slowly when it counts less. The zero value is ready to use, and it is safe
// for concurrent use.
type Calibration struct {
	mu     sync.Mutex
	factor float64 // 0 means MinFactor
	seen   int
}

// Observe records one request: estimated is the local count, actual the prompt
// tokens the provider reported. Observations that are too small or absurd are
// ignored.
func (c *Calibration) Observe(estimated, actual int) {
	if estimated < minObserved || actual <= 0 {
		return
	}
	ratio := float64(actual) / float64(estimated)
	if ratio > maxRatio || ratio < 1/maxRatio || math.IsNaN(ratio) {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	f := c.factorLocked()
	weight := 0.1 // falling: slowly
	if ratio > f {
		weight = 0.5 // rising: quickly
	}
	if c.seen == 0 {
		weight = 1
	}
	c.factor = min(MaxFactor, max(MinFactor, f+(ratio-f)*weight))
	c.seen++
}

// Factor is the current scale, in [MinFactor, MaxFactor].
func (c *Calibration) Factor() float64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.factorLocked()
}

func (c *Calibration) factorLocked() float64 {
	if c.factor == 0 {
		return MinFactor
	}
	return c.factor
}

// Scale is n times the factor, rounded up.
func (c *Calibration) Scale(n int) int {
	if n <= 0 {
		return n
	}
	return int(math.Ceil(float64(n) * c.Factor()))
}
