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
	pumpQueue   = 4       // batches read ahead of the one being delivered
	flowPoll    = 2 * time.Millisecond
)

// pump moves one output stream (the PTY master or the stderr pipe) to emit. One
// goroutine reads and batches, another delivers, so reading the terminal goes on while
// a batch is encoded and sent. src must support read deadlines.
type pump struct {
	src  *os.File
	emit func(data string) // called in order, on the delivering goroutine
	// ready is the flow control: while it is false the viewer is behind, and delivery
	// waits (up to stall), which in turn stops reading and pauses the program, as a
	// terminal's XOFF would. Nil means always ready.
	ready func() bool
	stall time.Duration
	stuck bool // the viewer stayed behind for a whole stall: stop waiting for it
	// active is when the pump last read, delivered or waited for its viewer (unix ns):
	// the run stops draining output only once it has been quiet for a while.
	active atomic.Int64
}

func (p *pump) touch() { p.active.Store(time.Now().UnixNano()) }

// quietSince reports whether the pump has done nothing since t.
func (p *pump) quietSince(t time.Time) bool { return p.active.Load() < t.UnixNano() }

// run returns once the stream has ended (EOF, EIO from a PTY whose other side is
// closed, or the file being closed) and everything read has been delivered.
func (p *pump) run() {
	batches := make(chan string, pumpQueue)
	delivered := make(chan struct{})
	go func() {
		defer close(delivered)
		for data := range batches {
			p.waitReady()
			p.emit(data)
			p.touch()
		}
	}()
	p.read(batches)
	close(batches)
	<-delivered
}

func (p *pump) read(out chan<- string) {
	buf := make([]byte, 0, batchMax)
	var lastFlush time.Time
	gathering := false // a read deadline is set
	flush := func(final bool) {
		buf, lastFlush = p.flush(buf, final, out), time.Now()
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
func (p *pump) flush(buf []byte, final bool, out chan<- string) []byte {
	n := len(buf)
	if !final {
		n = completePrefix(buf)
	}
	if n > 0 {
		out <- string(buf[:n])
	}
	rest := copy(buf, buf[n:])
	return buf[:rest]
}

func (p *pump) waitReady() {
	if p.ready == nil || p.ready() {
		p.stuck = false
		return
	}
	if p.stuck {
		return // it will be dropped by the hub, or catch up
	}
	deadline := time.Now().Add(p.stall)
	for !p.ready() {
		if time.Now().After(deadline) {
			p.stuck = true
			return
		}
		p.touch() // waiting for a viewer is not being stuck on an escaped process
		time.Sleep(flowPoll)
	}
}
