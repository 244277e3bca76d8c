package mic

import (
	"context"
	"encoding/binary"
	"errors"
	"io"
	"math"
	"sync"
	"sync/atomic"
	"time"
)

// Errors of a Recorder used out of turn.
var (
	ErrRecording  = errors.New("the microphone is already recording")
	ErrNotStarted = errors.New("the microphone is not recording")
	// ErrMaxDuration is why a recording that reached its Max ended (Err, Stop): the
	// audio up to there is kept.
	ErrMaxDuration = errors.New("the microphone turned itself off after the longest recording")
)

// levelWindow is how much of the latest audio Level measures (50 ms).
const levelWindow = speechRate / 20

// readBlock is how much a Recorder reads at a time (20 ms of Speech).
const readBlock = speechRate / 50 * 2

// RecorderOptions shape a Recorder.
type RecorderOptions struct {
	// Max is the longest a recording lasts; then it stops itself. 0: MaxCapture.
	Max time.Duration
	// OnAudio, when set, receives each block of samples as it is read, in order, on
	// the recorder's goroutine (a VAD listens there). It must not keep the slice.
	OnAudio func(pcm []int16)
	// Discard keeps nothing: Stop returns an empty WAV (hands-free listening hands
	// its audio to a VAD through OnAudio instead).
	Discard bool
}

// Recorder records a Source into memory. Start, then Stop returns the audio as a WAV
// file in the Speech format; Level tells how loud the last 50 ms were. A Recorder
// may be started again after Stop. The zero Recorder has the default options.
type Recorder struct {
	opts  RecorderOptions
	level atomic.Uint64 // float64 bits

	mu      sync.Mutex
	cancel  context.CancelFunc
	done    chan struct{} // closed when the reading ends
	pcm     []int16
	err     error // why reading ended early (not a stop)
	running bool
}

// NewRecorder makes a Recorder.
func NewRecorder(o RecorderOptions) *Recorder {
	if o.Max <= 0 {
		o.Max = MaxCapture
	}
	return &Recorder{opts: o}
}

// Start begins recording from src. It fails when already recording or when the
// source cannot start (the recorder's own error).
func (r *Recorder) Start(ctx context.Context, src Source) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.running {
		return ErrRecording
	}
	if r.opts.Max <= 0 { // the zero Recorder
		r.opts.Max = MaxCapture
	}
	ctx, cancel := context.WithTimeoutCause(ctx, r.opts.Max, ErrMaxDuration)
	rc, err := src.Start(ctx)
	if err != nil {
		cancel()
		return err
	}
	r.running, r.cancel, r.done, r.pcm, r.err = true, cancel, make(chan struct{}), nil, nil
	r.level.Store(0)
	go r.read(ctx, rc, r.done)
	return nil
}

// Done is closed when the recording has ended: stopped, the source ended or failed,
// or Max passed. Nil before the first Start.
func (r *Recorder) Done() <-chan struct{} {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.done
}

// Err is why the recording ended on its own (the source failed, or ErrMaxDuration),
// once Done is closed.
func (r *Recorder) Err() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.err
}

// Stop ends the recording (the source stops: its process group is killed) and
// returns what was recorded as WAV, with the error that ended it early if any (the
// audio is returned with ErrMaxDuration too).
func (r *Recorder) Stop() ([]byte, error) {
	r.mu.Lock()
	if !r.running {
		r.mu.Unlock()
		return nil, ErrNotStarted
	}
	r.running = false
	cancel, done := r.cancel, r.done
	r.mu.Unlock()
	cancel()
	<-done
	r.mu.Lock()
	defer r.mu.Unlock()
	pcm, err := r.pcm, r.err
	r.pcm = nil
	r.level.Store(0)
	return EncodeWAV(pcm, Speech), err
}

// Level is the RMS of the last 50 ms, 0 (silence) to 1 (full scale); 0 when not recording.
func (r *Recorder) Level() float64 { return math.Float64frombits(r.level.Load()) }

// read reads the source until it ends, keeping the samples and the level.
func (r *Recorder) read(ctx context.Context, rc io.ReadCloser, done chan struct{}) {
	defer close(done)
	defer rc.Close()
	buf := make([]byte, readBlock)
	limit := int(r.opts.Max * speechRate / time.Second)
	var (
		carry  []byte // an odd byte waiting for its pair
		recent = make([]int16, 0, levelWindow)
		block  []int16
	)
	for {
		n, err := rc.Read(buf)
		data := append(carry, buf[:n]...)
		whole := len(data) &^ 1
		block = block[:0]
		for i := 0; i < whole; i += 2 {
			block = append(block, int16(binary.LittleEndian.Uint16(data[i:])))
		}
		carry = append(carry[:0], data[whole:]...)
		if len(block) > 0 {
			recent = lastN(append(recent, block...), levelWindow)
			r.level.Store(math.Float64bits(rms(recent)))
			if r.opts.OnAudio != nil {
				r.opts.OnAudio(block)
			}
			if !r.opts.Discard {
				r.mu.Lock()
				r.pcm = append(r.pcm, block...)
				full := len(r.pcm) >= limit
				if full { // a source faster than real time: Max of audio is the bound too
					r.err = ErrMaxDuration
				}
				r.mu.Unlock()
				if full {
					r.level.Store(0)
					return
				}
			}
		}
		if err != nil {
			switch {
			case errors.Is(context.Cause(ctx), ErrMaxDuration):
				err = ErrMaxDuration
			case errors.Is(err, io.EOF) || ctx.Err() != nil:
				err = nil
			}
			r.mu.Lock()
			r.err = err
			r.mu.Unlock()
			r.level.Store(0)
			return
		}
	}
}

// lastN keeps the last n samples of s, in place.
func lastN(s []int16, n int) []int16 {
	if len(s) <= n {
		return s
	}
	return append(s[:0], s[len(s)-n:]...)
}

// rms is the root mean square of samples, 0 to 1.
func rms(s []int16) float64 {
	if len(s) == 0 {
		return 0
	}
	var sum float64
	for _, v := range s {
		f := float64(v) / 32768
		sum += f * f
	}
	return math.Sqrt(sum / float64(len(s)))
}
