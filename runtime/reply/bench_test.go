package reply

import (
	"fmt"
	"testing"
)

// BenchmarkAppendFullText streams a reply token by token with FullText after each delta,
// as the chat does. ns/token stays flat as the reply grows because FullText is amortised
// O(len(delta)).
func BenchmarkAppendFullText(b *testing.B) {
	for _, tokens := range []int{1000, 10000} {
		b.Run(fmt.Sprintf("tokens=%d", tokens), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				r := &Reply{}
				for range tokens {
					r.AppendText(" token")
					_ = r.FullText()
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*tokens), "ns/token")
		})
	}
}

// BenchmarkCallbacks is a turn with an action: 200 tokens of LLM text, four status
// callbacks, an append callback, and 200 more tokens, with FullText after every change.
func BenchmarkCallbacks(b *testing.B) {
	statuses := []string{"🔍 Looking up track...", "🔍 Searching for track...", "✨ Setting up playback...", "Now playing: **Song**"}
	b.ReportAllocs()
	for b.Loop() {
		r := &Reply{}
		for range 200 {
			r.AppendText(" token")
			_ = r.FullText()
		}
		r.StartAction("play")
		for _, s := range statuses {
			r.Callback("play", s, false)
			_ = r.FullText()
		}
		r.Callback("play", " (3:41)", true)
		_ = r.FullText()
		for range 200 {
			r.AppendText(" token")
			_ = r.FullText()
		}
		_ = r.History()
		_ = Trail(r.Segments())
	}
}
