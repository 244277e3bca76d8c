package shellgrant

import (
	"context"
	"errors"
	"io"
	"time"
)

// clock bounds one analysis: its budget and its caller's context. The parser
// reads the command through it in small pieces and the walk asks it at every
// node, so both stop soon after either runs out. Nothing runs in another
// goroutine: when Analyze returns, the work is over.
type clock struct {
	ctx      context.Context
	deadline time.Time
	ticks    int
	expired  bool
	canceled bool
}

func newClock(ctx context.Context, budget time.Duration) *clock {
	if ctx == nil {
		ctx = context.Background()
	}
	return &clock{ctx: ctx, deadline: time.Now().Add(budget)}
}

// over reports whether the analysis must stop. It reads the time only every
// few calls, which keeps the walk cheap.
func (c *clock) over() bool {
	if c.expired || c.canceled {
		return true
	}
	c.ticks++
	if c.ticks%32 != 0 {
		return false
	}
	return c.now()
}

// now checks the budget and the context at once.
func (c *clock) now() bool {
	if c.ctx.Err() != nil {
		c.canceled = true
	} else if time.Now().After(c.deadline) {
		c.expired = true
	}
	return c.expired || c.canceled
}

func (c *clock) reason() string {
	if c.canceled {
		return stopped
	}
	return tooComplex
}

var errOver = errors.New("out of time")

// reader feeds the parser 256 bytes at a time, checking the clock before each.
func (c *clock) reader(s string) io.Reader { return &clockReader{c: c, s: s} }

type clockReader struct {
	c *clock
	s string
}

func (r *clockReader) Read(p []byte) (int, error) {
	if r.c.now() {
		return 0, errOver
	}
	if len(r.s) == 0 {
		return 0, io.EOF
	}
	n := copy(p[:min(len(p), 256)], r.s)
	r.s = r.s[n:]
	return n, nil
}
