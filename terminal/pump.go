package terminal

import (
	"errors"
	"os"
	"time"
)

// Batching of output. The first bytes after a quiet spell are sent at once, so an echo
// is never delayed; while output keeps coming it is gathered for up to batchWindow or
// batchMax bytes per event.
const (
	batchWindow = 2 * time.Millisecond
	batchMax    = 32 << 10
)

// pump reads one output stream (the PTY master or the stderr pipe) until it ends and
// hands complete UTF-8 text to emit. src must support read deadlines.
type pump struct {
	src  *os.File
	emit func(data []byte) // data is only valid during the call
}

// run returns at end of output: EOF, EIO from a PTY whose other side is closed, or
// the file being closed.
func (p *pump) run() {
	buf := make([]byte, 0, batchMax)
	var lastFlush time.Time
	gathering := false // a read deadline is set
	for {
		n, err := p.src.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if errors.Is(err, os.ErrDeadlineExceeded) {
			buf, lastFlush = p.flush(buf, false), time.Now()
			_ = p.src.SetReadDeadline(time.Time{})
			gathering = false
			continue
		}
		if err != nil {
			p.flush(buf, true)
			return
		}
		now := time.Now()
		switch {
		case len(buf) >= batchMax, !gathering && now.Sub(lastFlush) >= batchWindow:
			buf, lastFlush = p.flush(buf, false), now
			if gathering {
				_ = p.src.SetReadDeadline(time.Time{})
				gathering = false
			}
		case !gathering:
			_ = p.src.SetReadDeadline(now.Add(batchWindow))
			gathering = true
		}
	}
}

// flush emits buf up to the last complete character and returns what is left (an
// unfinished UTF-8 sequence, moved to the front). At the end everything goes.
func (p *pump) flush(buf []byte, final bool) []byte {
	n := len(buf)
	if !final {
		n = completePrefix(buf)
	}
	if n > 0 {
		p.emit(buf[:n])
	}
	rest := copy(buf, buf[n:])
	return buf[:rest]
}
