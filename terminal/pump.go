package terminal

import (
	"errors"
	"os"
	"sync/atomic"
	"time"
)

// Batching of output. Small reads (an echo, a prompt, a progress line) are sent at
// once; while bulk output keeps coming it is gathered for up to batchWindow or batchMax
// bytes per event.
const (
	batchWindow = 2 * time.Millisecond
	batchMax    = 32 << 10
	bulkRead    = 1 << 10 // a read at least this big, soon after the last event, starts gathering
)

// pump reads one output stream (the PTY master or the stderr pipe), batches it and
// hands the batches to emit, which queues them for the run's delivering goroutine, so
// reading the terminal goes on while a batch is encoded and sent. src must support
// read deadlines.
type pump struct {
	src *os.File
	// emit queues a batch, in order. It waits while the run's outbox is full (the
	// viewer or the sink is behind), which stops reading and so pauses the program.
	emit func(data string)
	// active is when the pump last read or queued (unix ns), and waiting is set while
	// emit waits for room: the run stops draining output only once the pump has been
	// quiet for a while, and waiting for a viewer is not being quiet.
	active  atomic.Int64
	waiting atomic.Bool
}

func (p *pump) touch() { p.active.Store(time.Now().UnixNano()) }

// quietSince reports whether the pump has done nothing since t.
func (p *pump) quietSince(t time.Time) bool {
	return !p.waiting.Load() && p.active.Load() < t.UnixNano()
}

// run returns once the stream has ended (EOF, EIO from a PTY whose other side is
// closed, or the file being closed) and everything read has been queued.
func (p *pump) run() {
	buf := make([]byte, 0, batchMax)
	var lastFlush time.Time
	gathering := false // a read deadline is set
	flush := func(final bool) {
		buf, lastFlush = p.flush(buf, final), time.Now()
		if gathering {
			_ = p.src.SetReadDeadline(time.Time{})
			gathering = false
		}
	}
	for {
		n, err := p.src.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if n > 0 {
			p.touch()
		}
		if errors.Is(err, os.ErrDeadlineExceeded) {
			flush(false)
			continue
		}
		if err != nil {
			flush(true)
			return
		}
		switch {
		case len(buf) >= batchMax:
			flush(false)
		case gathering: // the deadline flushes
		case n >= bulkRead && time.Since(lastFlush) < batchWindow:
			_ = p.src.SetReadDeadline(time.Now().Add(batchWindow))
			gathering = true
		default:
			flush(false)
		}
	}
}

// flush sends buf up to the last complete character and returns what is left (an
// unfinished UTF-8 sequence, moved to the front). At the end everything goes.
func (p *pump) flush(buf []byte, final bool) []byte {
	n := len(buf)
	if !final {
		n = completePrefix(buf)
	}
	if n > 0 {
		p.waiting.Store(true)
		p.emit(string(buf[:n]))
		p.waiting.Store(false)
		p.touch()
	}
	rest := copy(buf, buf[n:])
	return buf[:rest]
}
