package main

import (
	"math"
	"slices"
)

// median returns the middle value of xs (the mean of the two middle values
// when len(xs) is even), or NaN for an empty slice. xs is not modified.
func median(xs []float64) float64 {
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

// percentile returns the p-th percentile (0 < p <= 100) of xs by the
// nearest-rank method, or NaN for an empty slice. xs is not modified.
func percentile(xs []float64, p float64) float64 {
	n := len(xs)
	if n == 0 {
		return math.NaN()
	}
	s := slices.Sorted(slices.Values(xs))
	rank := int(math.Ceil(p / 100 * float64(n)))
	return s[min(max(rank, 1), n)-1]
}
