package main

import "github.com/wispapp/wisp/bench/benchkit"

// summary is the median and p90 of one series of samples.
type summary struct {
	Median float64 `json:"median"`
	P90    float64 `json:"p90"`
}

func summarize(xs []float64) summary {
	return summary{Median: benchkit.Median(xs), P90: benchkit.Percentile(xs, 90)}
}
