package tokens

import (
	"sync"
	"testing"
)

func TestCalibration(t *testing.T) {
	var c Calibration
	if c.Factor() != 1 || c.Scale(100) != 100 {
		t.Fatalf("zero value: factor %v, scale %d", c.Factor(), c.Scale(100))
	}
	c.Observe(1000, 1200)
	if f := c.Factor(); f < 1.19 || f > 1.21 {
		t.Fatalf("after 1000→1200: factor %v, want 1.2", f)
	}
	if got := c.Scale(100); got != 120 {
		t.Fatalf("scale(100) = %d, want 120", got)
	}
	// absurd and tiny observations change nothing
	for _, o := range [][2]int{{1000, 0}, {1000, -5}, {1000, 1_000_000}, {1000, 50}, {10, 30}, {0, 100}, {-1, 100}} {
		c.Observe(o[0], o[1])
	}
	if f := c.Factor(); f < 1.19 || f > 1.21 {
		t.Fatalf("after absurd observations: factor %v, want 1.2", f)
	}
	// an under-count is learned quickly, an over-count forgotten slowly
	c.Observe(1000, 2000)
	up := c.Factor()
	if up < 1.5 {
		t.Fatalf("after 1000→2000: factor %v, want ≥ 1.5", up)
	}
	c.Observe(1000, 1000)
	if down := c.Factor(); down >= up || down < up-0.2 {
		t.Fatalf("after 1000→1000: factor %v from %v, want a small fall", down, up)
	}
	// bounded
	for range 50 {
		c.Observe(1000, 9000)
	}
	if f := c.Factor(); f != MaxFactor {
		t.Fatalf("factor %v, want %v", f, MaxFactor)
	}
	var low Calibration
	low.Observe(1000, 500)
	if f := low.Factor(); f != MinFactor {
		t.Fatalf("factor %v, want %v", f, MinFactor)
	}
}

func TestCalibrationConcurrent(t *testing.T) {
	var c Calibration
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() {
			for j := range 100 {
				c.Observe(1000, 1000+i*10+j)
				_ = c.Scale(j)
			}
		})
	}
	wg.Wait()
	if f := c.Factor(); f < 1 || f > 1.2 {
		t.Fatalf("factor %v", f)
	}
}
