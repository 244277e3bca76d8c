package batch

import (
	"slices"
	"testing"
)

func TestCollect(t *testing.T) {
	tests := []struct {
		name   string
		queued []int
		closed bool
		max    int
		want   []int
		left   int
	}{
		{"only the first", nil, false, 4, []int{0}, 0},
		{"what is queued", []int{1, 2}, false, 4, []int{0, 1, 2}, 0},
		{"at most max", []int{1, 2, 3, 4, 5}, false, 3, []int{0, 1, 2}, 3},
		{"a closed channel", []int{1}, true, 4, []int{0, 1}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := make(chan int, 8)
			for _, v := range tt.queued {
				in <- v
			}
			if tt.closed {
				close(in)
			}
			buf := []int{9, 9, 9}
			if got := Collect(in, 0, buf, tt.max); !slices.Equal(got, tt.want) {
				t.Fatalf("got %v, want %v", got, tt.want)
			}
			if len(in) != tt.left {
				t.Fatalf("%d left queued, want %d", len(in), tt.left)
			}
		})
	}
}
