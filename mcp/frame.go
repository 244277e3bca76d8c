package mcp

import (
	"bytes"
	"fmt"
	"io"
	"sync/atomic"
)

// lineCap reads a stdio server's output, whose messages are one line each, and
// ends it with errMessageTooBig at the first line over max bytes: a server cannot
// make Wisp buffer more than that, and says why it was cut off.
type lineCap struct {
	r    io.ReadCloser
	max  int
	line int // bytes of the current line so far
	over atomic.Bool
}

// errMessageTooBig ends the output of a server that sent a message over the cap.
var errMessageTooBig = fmt.Errorf("the server sent a message over %d MiB, the most Wisp reads", maxMessageBytes>>20)

func (c *lineCap) Read(p []byte) (int, error) {
	if c.over.Load() {
		return 0, errMessageTooBig
	}
	n, err := c.r.Read(p)
	for rest := p[:n]; len(rest) > 0; {
		i := bytes.IndexByte(rest, '\n')
		if i < 0 {
			c.line += len(rest)
			break
		}
		if c.line+i > c.max {
			c.line += i
			break
		}
		c.line, rest = 0, rest[i+1:]
	}
	if c.line > c.max {
		c.over.Store(true)
		return 0, errMessageTooBig
	}
	return n, err
}

// Close closes the output (the SDK closes its reader when the session ends).
func (c *lineCap) Close() error { return c.r.Close() }

// tooBig reports whether the output was cut off for a message over the cap.
func (c *lineCap) tooBig() bool { return c.over.Load() }
