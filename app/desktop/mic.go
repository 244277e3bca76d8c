package desktop

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"time"

	"github.com/wispapp/wisp/mic"
)

// Transcriber turns recorded speech into text through the configured speech-to-text
// server (App.Transcribe).
type Transcriber interface {
	Transcribe(ctx context.Context, audio []byte, mime string) (string, error)
}

// eventSink sends events to the page: the Wails runtime's EventsEmit in the window
// (mic_wails.go), a fake in tests.
type eventSink interface {
	Emit(name string, data any)
}

// The events the microphone sends the page (frontend/src/voice reads them).
const (
	micLevelEvent       = "mic:level"        // MicLevel, about 10 a second while on
	micStateEvent       = "mic:state"        // MicState, at every change (and a hands-free transcription error)
	micTranscriptEvent  = "mic:transcript"   // MicTranscript, one per hands-free utterance
	micSpeechStartEvent = "mic:speech-start" // {}, when hands-free listening hears speech (barge-in)
)

// MicLevel is how loud the microphone is: the RMS of the last 50 ms, 0–1.
type MicLevel struct {
	Level float64 `json:"level"`
}

// MicState says whether the microphone is on, in which mode, and what went wrong.
type MicState struct {
	On        bool   `json:"on"`
	HandsFree bool   `json:"handsFree"`
	Error     string `json:"error,omitempty"`
}

// MicTranscript is the text of one hands-free utterance.
type MicTranscript struct {
	Text string `json:"text"`
}

// Bounds of listening in the window.
const (
	levelEvery = 100 * time.Millisecond
	// transcribeTimeout is an outer bound only: the voice service bounds its own
	// wait (up to five minutes for a long recording on a local Whisper).
	transcribeTimeout = 6 * time.Minute
	// utteranceQueue bounds the hands-free utterances waiting for the STT server;
	// beyond it one is dropped (and the page told) rather than held.
	utteranceQueue = 4
	wavMIME        = "audio/wav"
)

// micOptions build a Mic.
type micOptions struct {
	Detect      func() (mic.Source, string, error) // nil: mic.Detect
	Transcriber Transcriber                        // nil: speech in is not available
	Events      eventSink
	Log         *slog.Logger
	Max         time.Duration // longest a session listens; 0: mic.MaxCapture
}

// Mic is the microphone of the desktop window, where WebKitGTK does not grant
// getUserMedia. Push-to-talk: Start(false) records until Stop, which transcribes
// and returns the text. Hands-free: Start(true) listens until Stop; each utterance
// the VAD hears is transcribed and sent as mic:transcript. The microphone is on only
// between Start and Stop (at most Max); the audio stays in memory and goes only to
// the Transcriber.
type Mic struct {
	opts   micOptions
	ctx    context.Context // the transcriptions'; cancelled by Close
	cancel context.CancelFunc
	wg     sync.WaitGroup // the sessions' goroutines

	mu     sync.Mutex
	cur    *micSession
	closed bool
}

// micSession is one time the microphone is on.
type micSession struct {
	handsFree bool
	name      string // the source's
	rec       *mic.Recorder
	vad       *mic.VAD      // hands-free only
	queue     chan []byte   // hands-free utterances as WAV, for the transcriber
	stopped   chan struct{} // closed by Stop
	finish    func()        // after the recording: the last utterance, then no more
}

func newMic(o micOptions) *Mic {
	if o.Detect == nil {
		o.Detect = mic.Detect
	}
	if o.Log == nil {
		o.Log = slog.New(slog.DiscardHandler)
	}
	if o.Max <= 0 {
		o.Max = mic.MaxCapture
	}
	ctx, cancel := context.WithCancel(context.Background())
	return &Mic{opts: o, ctx: ctx, cancel: cancel}
}

// errNoTranscriber is the answer when this Wisp cannot turn speech into text.
var errNoTranscriber = errors.New("speech in is not available in this build")

// Start turns the microphone on: push-to-talk, or hands-free. While it is on in the
// same mode, Start again does nothing (a held shortcut repeats); in the other mode
// it is refused.
func (m *Mic) Start(handsFree bool) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	switch {
	case m.closed:
		return errors.New("the window has closed")
	case m.opts.Transcriber == nil:
		return errNoTranscriber
	}
	if s := m.cur; s != nil {
		select {
		case <-s.rec.Done(): // ended by itself and never stopped: let it go
			m.cur = nil
			m.endLocked(s)
		default:
			if s.handsFree == handsFree {
				return nil
			}
			return fmt.Errorf("the microphone is already on (%s): turn it off first", modeName(s.handsFree))
		}
	}
	src, name, err := m.opts.Detect()
	if err == nil {
		var s *micSession
		if s, err = m.startLocked(src, name, handsFree); err == nil {
			m.cur = s
			m.opts.Log.Info("microphone on", "source", name, "mode", modeName(handsFree))
			m.opts.Events.Emit(micStateEvent, MicState{On: true, HandsFree: handsFree})
			return nil
		}
	}
	m.opts.Log.Warn("microphone did not start", "mode", modeName(handsFree), "err", err)
	m.opts.Events.Emit(micStateEvent, MicState{HandsFree: handsFree, Error: err.Error()})
	return err
}

// startLocked starts recording from src and the session's goroutines.
func (m *Mic) startLocked(src mic.Source, name string, handsFree bool) (*micSession, error) {
	s := &micSession{handsFree: handsFree, name: name, stopped: make(chan struct{})}
	ro := mic.RecorderOptions{Max: m.opts.Max}
	if handsFree {
		s.queue = make(chan []byte, utteranceQueue)
		s.vad = mic.NewVAD(mic.VADEvents{
			SpeechStart: func(time.Duration) { m.opts.Events.Emit(micSpeechStartEvent, struct{}{}) },
			Utterance:   func(u mic.Utterance) { m.enqueue(s, u) },
		})
		ro.OnAudio, ro.Discard = s.vad.Feed, true
	}
	s.rec = mic.NewRecorder(ro)
	s.finish = sync.OnceFunc(func() {
		if s.vad != nil { // the recording has ended: the VAD is ours now
			s.vad.Flush()
			close(s.queue)
		}
	})
	if err := s.rec.Start(context.Background(), src); err != nil {
		return nil, err
	}
	m.wg.Add(1)
	go m.watch(s)
	if handsFree {
		m.wg.Add(1)
		go m.transcribeEach(s)
	}
	return s, nil
}

// Stop turns the microphone off. After push-to-talk it transcribes the recording
// and returns the text; after hands-free it returns "" (an utterance in progress is
// still transcribed and sent as mic:transcript). Without Start it is an error.
func (m *Mic) Stop() (string, error) {
	m.mu.Lock()
	s := m.cur
	m.cur = nil
	if s == nil {
		m.mu.Unlock()
		return "", errors.New("the microphone is not on: nothing to stop")
	}
	wav, err := m.endLocked(s)
	m.opts.Events.Emit(micStateEvent, MicState{HandsFree: s.handsFree})
	m.mu.Unlock()
	m.opts.Log.Info("microphone off", "mode", modeName(s.handsFree))
	if s.handsFree {
		return "", nil
	}
	if err != nil && !errors.Is(err, mic.ErrMaxDuration) {
		return "", fmt.Errorf("the microphone (%s): %w", s.name, err)
	}
	ctx, cancel := context.WithTimeout(m.ctx, transcribeTimeout)
	defer cancel()
	text, err := m.opts.Transcriber.Transcribe(ctx, wav, wavMIME)
	if err != nil {
		return "", err
	}
	return strings.TrimSpace(text), nil
}

// endLocked stops a session's recording (its recorder process is killed) and
// returns what it recorded.
func (m *Mic) endLocked(s *micSession) ([]byte, error) {
	close(s.stopped)
	wav, err := s.rec.Stop()
	s.finish()
	return wav, err
}

// Close turns the microphone off without transcribing and waits for the
// transcriptions in flight, which are cancelled (the window is closing).
func (m *Mic) Close() {
	m.mu.Lock()
	m.closed = true
	if s := m.cur; s != nil {
		m.cur = nil
		m.endLocked(s)
	}
	m.mu.Unlock()
	m.cancel()
	m.wg.Wait()
}

// watch sends the level while the session is on and tells the page when the
// recording ends by itself (the recorder failed, or Max passed).
func (m *Mic) watch(s *micSession) {
	defer m.wg.Done()
	tick := time.NewTicker(levelEvery)
	defer tick.Stop()
	for {
		select {
		case <-s.stopped:
			return
		case <-s.rec.Done():
			s.finish()
			state := MicState{HandsFree: s.handsFree}
			if err := s.rec.Err(); err != nil {
				state.Error = err.Error()
			}
			m.opts.Log.Info("microphone ended by itself", "mode", modeName(s.handsFree), "err", state.Error)
			m.opts.Events.Emit(micStateEvent, state)
			return
		case <-tick.C:
			m.opts.Events.Emit(micLevelEvent, MicLevel{Level: s.rec.Level()})
		}
	}
}

// enqueue hands an utterance to the transcriber (on the recorder's goroutine: it
// must not block capture).
func (m *Mic) enqueue(s *micSession, u mic.Utterance) {
	select {
	case s.queue <- mic.EncodeWAV(u.Audio, mic.Speech):
	default:
		m.opts.Log.Warn("utterance dropped: the speech-to-text server is behind")
		m.opts.Events.Emit(micStateEvent, MicState{On: true, HandsFree: true, Error: "an utterance was dropped: speech-to-text is behind"})
	}
}

// transcribeEach transcribes a hands-free session's utterances in order and sends
// their text.
func (m *Mic) transcribeEach(s *micSession) {
	defer m.wg.Done()
	for wav := range s.queue {
		ctx, cancel := context.WithTimeout(m.ctx, transcribeTimeout)
		text, err := m.opts.Transcriber.Transcribe(ctx, wav, wavMIME)
		cancel()
		if err != nil {
			if m.ctx.Err() != nil {
				continue // closing: the rest are cancelled too
			}
			m.opts.Log.Warn("transcription failed", "err", err)
			m.opts.Events.Emit(micStateEvent, MicState{On: m.isOn(s), HandsFree: true, Error: err.Error()})
			continue
		}
		if text = strings.TrimSpace(text); text != "" {
			// The words are the user's: the log says only that something was heard.
			m.opts.Log.Info("microphone heard an utterance", "mode", "hands-free", "chars", len(text))
			m.opts.Events.Emit(micTranscriptEvent, MicTranscript{Text: text})
		}
	}
}

// isOn reports whether s is the session listening now.
func (m *Mic) isOn(s *micSession) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.cur != s {
		return false
	}
	select {
	case <-s.rec.Done():
		return false
	default:
		return true
	}
}

func modeName(handsFree bool) string {
	if handsFree {
		return "hands-free"
	}
	return "push-to-talk"
}
