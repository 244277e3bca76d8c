package ws

import (
	"sort"
)

// entry is an encoded envelope in the replay ring.
type entry struct {
	id   int64
	data []byte
}

// ring keeps the newest cap entries in ascending id order.
type ring struct {
	buf   []entry
	start int // index of the oldest entry
	n     int
}

func newRing(capacity int) *ring { return &ring{buf: make([]entry, capacity)} }

func (r *ring) push(e entry) {
	if r.n < len(r.buf) {
		r.buf[(r.start+r.n)%len(r.buf)] = e
		r.n++
		return
	}
	r.buf[r.start] = e
	r.start = (r.start + 1) % len(r.buf)
}

func (r *ring) at(i int) entry { return r.buf[(r.start+i)%len(r.buf)] }

func (r *ring) last() int64 {
	if r.n == 0 {
		return 0
	}
	return r.at(r.n - 1).id
}

// first is the id of the oldest entry (the next id when empty).
func (r *ring) first() int64 {
	if r.n == 0 {
		return r.last() + 1
	}
	return r.at(0).id
}

// covers reports whether every entry after id is still held: id is no older than
// the one before the oldest, and no newer than the newest.
func (r *ring) covers(id int64) bool {
	if r.n == 0 {
		return id == 0
	}
	return id >= r.at(0).id-1 && id <= r.last()
}

// tail returns the newest n entries, oldest first.
func (r *ring) tail(n int) []entry {
	n = min(n, r.n)
	out := make([]entry, n)
	for i := range n {
		out[i] = r.at(r.n - n + i)
	}
	return out
}

// after returns the entries with an id greater than id, oldest first.
func (r *ring) after(id int64) []entry {
	first := sort.Search(r.n, func(i int) bool { return r.at(i).id > id })
	return r.tail(r.n - first)
}
