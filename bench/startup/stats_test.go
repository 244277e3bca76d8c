package main

import (
	"math"
	"testing"
)

func TestMedian(t *testing.T) {
	for _, tc := range []struct {
		in   []float64
		want float64
	}{
		{[]float64{5}, 5},
		{[]float64{3, 1, 2}, 2},
		{[]float64{4, 1, 3, 2}, 2.5},
		{[]float64{7, 7, 1, 100, 7}, 7},
	} {
		if got := median(tc.in); got != tc.want {
			t.Errorf("median(%v) = %v, want %v", tc.in, got, tc.want)
		}
	}
	if got := median(nil); !math.IsNaN(got) {
		t.Errorf("median(nil) = %v, want NaN", got)
	}
}

func TestMedianKeepsInput(t *testing.T) {
	in := []float64{3, 1, 2}
	median(in)
	percentile(in, 90)
	if in[0] != 3 || in[1] != 1 || in[2] != 2 {
		t.Errorf("input was reordered: %v", in)
	}
}

func TestPercentile(t *testing.T) {
	fifteen := []float64{15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1}
	ten := []float64{10, 9, 8, 7, 6, 5, 4, 3, 2, 1}
	for _, tc := range []struct {
		in   []float64
		p    float64
		want float64
	}{
		{fifteen, 90, 14}, // ceil(0.9*15) = 14th smallest
		{ten, 90, 9},      // ceil(0.9*10) = 9th smallest
		{ten, 100, 10},
		{ten, 50, 5},
		{[]float64{42}, 90, 42},
		{[]float64{1, 2}, 1, 1},
	} {
		if got := percentile(tc.in, tc.p); got != tc.want {
			t.Errorf("percentile(%v, %v) = %v, want %v", tc.in, tc.p, got, tc.want)
		}
	}
	if got := percentile(nil, 90); !math.IsNaN(got) {
		t.Errorf("percentile(nil) = %v, want NaN", got)
	}
}
