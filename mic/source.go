package mic

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sync"
	"time"
)

// Source is where audio comes from. Start begins capture and returns raw PCM in the
// Speech format (s16le, 16 kHz, mono); capture ends when the reader is closed or ctx
// ends, whichever comes first. A Source may be started again after that.
type Source interface {
	Start(ctx context.Context) (io.ReadCloser, error)
}

// ErrNoCapture is returned by Detect when no recorder program is installed.
var ErrNoCapture = errors.New("no microphone recorder found: install PipeWire's pw-record (pipewire-bin or pipewire-utils), " +
	"PulseAudio's parecord (pulseaudio-utils) or ALSA's arecord (alsa-utils)")

// Environment variables that choose a source instead of the microphone (tests, demos).
const (
	EnvFile = "WISP_MIC_FILE" // a WAV file played as if spoken into the mic
	EnvMic  = "WISP_MIC"      // "null": silence
)

// recorders are the programs Detect looks for, in order, with the arguments that make
// them write Speech PCM to stdout.
var recorders = []struct {
	name string
	args []string
}{
	{"pw-record", []string{"--rate", "16000", "--channels", "1", "--format", "s16", "-"}},
	{"parecord", []string{"--raw", "--rate=16000", "--channels=1", "--format=s16le", "--latency-msec=50"}},
	{"arecord", []string{"-q", "-t", "raw", "-f", "S16_LE", "-r", "16000", "-c", "1", "-"}},
}

// Detect finds the microphone: WISP_MIC_FILE names a WAV file played in real time
// (then silence), WISP_MIC=null gives silence; otherwise the first of pw-record,
// parecord and arecord on PATH. It returns the source and its name.
func Detect() (Source, string, error) {
	if path := os.Getenv(EnvFile); path != "" {
		return FileSource(path), "file " + path, nil
	}
	if os.Getenv(EnvMic) == "null" {
		return NullSource(), "null", nil
	}
	for _, r := range recorders {
		path, err := exec.LookPath(r.name)
		if err != nil {
			continue
		}
		return &ProcessSource{Name: r.name, Path: path, Args: r.args}, r.name, nil
	}
	return nil, "", ErrNoCapture
}

// NullSource is a microphone that hears nothing: silence in real time until stopped.
func NullSource() Source { return nullSource{} }

type nullSource struct{}

func (nullSource) Start(ctx context.Context) (io.ReadCloser, error) {
	return newPaced(ctx, nil, true, true), nil
}

// maxWAVFile bounds the file a FileSource reads (5 minutes of 48 kHz stereo fit).
const maxWAVFile = 128 << 20

// FileOption changes how a FileSource plays its file.
type FileOption func(*fileSource)

// Unpaced makes a FileSource give its samples as fast as they are read, then end;
// by default it gives them in real time, like a microphone, then silence until stopped.
func Unpaced() FileOption { return func(f *fileSource) { f.paced = false } }

// FileSource plays a 16-bit WAV file (any rate and channels, converted to Speech)
// as if it were spoken into the microphone.
func FileSource(path string, opts ...FileOption) Source {
	f := &fileSource{path: path, paced: true}
	for _, o := range opts {
		o(f)
	}
	return f
}

type fileSource struct {
	path  string
	paced bool
}

func (f *fileSource) Start(ctx context.Context) (io.ReadCloser, error) {
	pcm, err := readWAVFile(f.path)
	if err != nil {
		return nil, err
	}
	return newPaced(ctx, pcm, f.paced, f.paced), nil
}

// readWAVFile reads and converts a WAV file, bounded by maxWAVFile.
func readWAVFile(path string) ([]int16, error) {
	file, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("microphone file: %w", err)
	}
	defer file.Close()
	b, err := io.ReadAll(io.LimitReader(file, maxWAVFile+1))
	if err != nil {
		return nil, fmt.Errorf("microphone file: %w", err)
	}
	if len(b) > maxWAVFile {
		return nil, fmt.Errorf("microphone file %s: larger than %d MiB", path, maxWAVFile>>20)
	}
	pcm, format, err := DecodeWAV(b)
	if err != nil {
		return nil, fmt.Errorf("microphone file %s: %w", path, err)
	}
	return Convert(pcm, format, Speech), nil
}

// pacedTick is how often a paced reader with nothing due waits before looking again.
const pacedTick = 20 * time.Millisecond

// paced gives samples (then silence, when tail) as PCM bytes, in real time when
// paced; it ends at Close or when ctx ends.
type paced struct {
	ctx    context.Context
	pcm    []int16
	paced  bool
	tail   bool
	start  time.Time
	pos    int // samples given
	closed chan struct{}
	once   sync.Once
}

func newPaced(ctx context.Context, pcm []int16, realTime, tail bool) *paced {
	return &paced{ctx: ctx, pcm: pcm, paced: realTime, tail: tail, start: time.Now(), closed: make(chan struct{})}
}

func (p *paced) Read(b []byte) (int, error) {
	want := len(b) / 2
	if want == 0 {
		return 0, io.ErrShortBuffer
	}
	for {
		select {
		case <-p.closed:
			return 0, io.EOF
		case <-p.ctx.Done():
			return 0, io.EOF
		default:
		}
		if !p.tail && p.pos >= len(p.pcm) {
			return 0, io.EOF
		}
		n := want
		if !p.tail {
			n = min(n, len(p.pcm)-p.pos)
		}
		if p.paced {
			due := int(time.Since(p.start)*time.Duration(Speech.Rate)/time.Second) - p.pos
			if due <= 0 {
				p.wait()
				continue
			}
			n = min(n, due)
		}
		for i := range n {
			var s int16
			if p.pos+i < len(p.pcm) {
				s = p.pcm[p.pos+i]
			}
			binary.LittleEndian.PutUint16(b[2*i:], uint16(s))
		}
		p.pos += n
		return 2 * n, nil
	}
}

// wait waits a tick, or until the reader is closed or its context ends.
func (p *paced) wait() {
	t := time.NewTimer(pacedTick)
	defer t.Stop()
	select {
	case <-t.C:
	case <-p.closed:
	case <-p.ctx.Done():
	}
}

func (p *paced) Close() error {
	p.once.Do(func() { close(p.closed) })
	return nil
}
