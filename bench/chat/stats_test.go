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
	} {
		if got := median(tc.in); got != tc.want {
			t.Errorf("median(%v) = %v, want %v", tc.in, got, tc.want)
		}
	}
	if got := median(nil); !math.IsNaN(got) {
		t.Errorf("median(nil) = %v, want NaN", got)
	}
}

func TestPercentile(t *testing.T) {
	var hundred []float64
	for i := 100; i >= 1; i-- {
		hundred = append(hundred, float64(i))
	}
	for _, tc := range []struct {
		in   []float64
		p    float64
		want float64
	}{
		{hundred, 50, 50},
		{hundred, 95, 95},
		{[]float64{3, 1, 2}, 95, 3},
		{[]float64{42}, 50, 42},
	} {
		if got := percentile(tc.in, tc.p); got != tc.want {
			t.Errorf("percentile(%v, %v) = %v, want %v", len(tc.in), tc.p, got, tc.want)
		}
	}
	if hundred[0] != 100 {
		t.Error("input was reordered")
	}
}
