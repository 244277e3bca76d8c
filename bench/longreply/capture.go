package main

import (
	"errors"
	"io"
)

// readChunk is how much one Read asks for.
const readChunk = 256 << 10

// capture is a stream's body as the client kept it: its first bytes, up to a
// limit, and once past that a sliding window of its last bytes (enough for the
// final frame), so that a 3 GB stream is read without being held.
type capture struct {
	head  []byte // the first min(total, limit) bytes
	tail  []byte // past the head: at least the last `window` bytes read
	slid  bool   // tail has dropped bytes: it no longer follows head
	total int64
}

// readCapture reads r to its end, reading straight into the kept buffers so
// that the only copy of most bytes is the kernel's.
func readCapture(r io.Reader, limit, window int) (*capture, error) {
	c := &capture{head: make([]byte, 0, min(limit, 1<<20))}
	for {
		var n int
		var err error
		if len(c.head) < limit {
			c.head = growTo(c.head, limit)
			n, err = r.Read(c.head[len(c.head):min(cap(c.head), len(c.head)+readChunk)])
			c.head = c.head[:len(c.head)+n]
		} else {
			c.slide(window)
			n, err = r.Read(c.tail[len(c.tail) : len(c.tail)+readChunk])
			c.tail = c.tail[:len(c.tail)+n]
		}
		c.total += int64(n)
		if errors.Is(err, io.EOF) {
			return c, nil
		}
		if err != nil {
			return c, err
		}
	}
}

// growTo makes room for at least one more read in b without passing limit.
func growTo(b []byte, limit int) []byte {
	if cap(b)-len(b) >= min(readChunk, limit-len(b)) {
		return b
	}
	nb := make([]byte, len(b), min(max(2*cap(b), len(b)+readChunk), limit))
	copy(nb, b)
	return nb
}

// slide makes room for one more read in the tail, keeping its last window
// bytes; the buffer is 8 windows long, so the bytes kept are copied once per
// seven windows read.
func (c *capture) slide(window int) {
	if c.tail == nil {
		c.tail = make([]byte, 0, 8*window+readChunk)
	}
	if cap(c.tail)-len(c.tail) >= readChunk {
		return
	}
	n := copy(c.tail, c.tail[len(c.tail)-window:])
	c.tail, c.slid = c.tail[:n], true
}

// whole reports whether every byte of the stream was kept.
func (c *capture) whole() bool { return int64(len(c.head)) == c.total }

// final is the stream's last frame, or an error if it was not kept whole
// (window is too small for it).
func (c *capture) final(window int) ([]byte, error) {
	if c.whole() {
		f, _ := lastFrame(c.head) // the stream's first frame may have no blank line before it
		return f, nil
	}
	kept := c.tail
	if !c.slid { // the tail follows the head: the last frame may begin in either
		kept = append(append([]byte(nil), c.head[len(c.head)-min(len(c.head), window):]...), c.tail...)
	}
	f, ok := lastFrame(kept)
	if !ok {
		return nil, errors.New("the stream's last frame is longer than the window kept")
	}
	return f, nil
}
