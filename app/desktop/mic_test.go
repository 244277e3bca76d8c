package desktop

import (
	"context"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/wispapp/wisp/mic"
)

// waitLimit bounds every wait of a test for something that must happen.
const waitLimit = 10 * time.Second

// event is one event the page would have received.
type event struct {
	name string
	data any
}

// fakeSink keeps the events sent to the page.
type fakeSink struct {
	mu      sync.Mutex
	events  []event
	changed chan struct{} // closed at the next event
}

func newFakeSink() *fakeSink { return &fakeSink{changed: make(chan struct{})} }

func (f *fakeSink) Emit(name string, data any) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.events = append(f.events, event{name, data})
	close(f.changed)
	f.changed = make(chan struct{})
}

// of lists the data of the events named name.
func (f *fakeSink) of(name string) []any {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []any
	for _, e := range f.events {
		if e.name == name {
			out = append(out, e.data)
		}
	}
	return out
}

// waitFor waits until cond holds, checked at every event.
func (f *fakeSink) waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	timer := time.NewTimer(waitLimit)
	defer timer.Stop()
	for {
		f.mu.Lock()
		next := f.changed
		f.mu.Unlock()
		if cond() {
			return
		}
		select {
		case <-next:
		case <-timer.C:
			t.Fatalf("timed out waiting for %s", what)
		}
	}
}

// lastState is the last mic:state sent.
func (f *fakeSink) lastState() (MicState, bool) {
	states := f.of(micStateEvent)
	if len(states) == 0 {
		return MicState{}, false
	}
	return states[len(states)-1].(MicState), true
}

// fakeTranscriber answers each transcription with the next of texts (or err) and
// keeps the audio it was given.
type fakeTranscriber struct {
	mu    sync.Mutex
	texts []string
	err   error
	audio [][]byte
	mimes []string
}

func (f *fakeTranscriber) Transcribe(ctx context.Context, audio []byte, mime string) (string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.audio = append(f.audio, audio)
	f.mimes = append(f.mimes, mime)
	if f.err != nil {
		return "", f.err
	}
	text := f.texts[0]
	if len(f.texts) > 1 {
		f.texts = f.texts[1:]
	}
	return text, nil
}

func (f *fakeTranscriber) received() [][]byte {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([][]byte(nil), f.audio...)
}

// testMic is a Mic on src with a fake transcriber and sink, closed when the test ends.
func testMic(t *testing.T, src mic.Source, stt *fakeTranscriber) (*Mic, *fakeSink) {
	t.Helper()
	sink := newFakeSink()
	o := micOptions{
		Detect: func() (mic.Source, string, error) { return src, "test", nil },
		Events: sink,
	}
	if stt != nil {
		o.Transcriber = stt
	}
	m := newMic(o)
	t.Cleanup(m.Close)
	return m, sink
}

// speechWAV writes a WAV of silence, 1 s of tone, silence, in the test's folder.
func speechWAV(t *testing.T, bursts int) string {
	t.Helper()
	const rate = 16000
	pcm := make([]int16, rate/2)
	for range bursts {
		for i := range rate {
			pcm = append(pcm, int16(0.3*32767*math.Sin(2*math.Pi*440*float64(i)/rate)))
		}
		pcm = append(pcm, make([]int16, rate*3/2)...)
	}
	path := filepath.Join(t.TempDir(), "speech.wav")
	if err := os.WriteFile(path, mic.EncodeWAV(pcm, mic.Speech), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestMicPushToTalkReturnsTheText(t *testing.T) {
	stt := &fakeTranscriber{texts: []string{"  What is the weather like today?\n"}}
	m, sink := testMic(t, mic.FileSource(speechWAV(t, 1)), stt)
	if err := m.Start(false); err != nil {
		t.Fatal(err)
	}
	if s, _ := sink.lastState(); !s.On || s.HandsFree {
		t.Fatalf("state %+v, want on, push-to-talk", s)
	}
	sink.waitFor(t, "a level above silence", func() bool {
		for _, l := range sink.of(micLevelEvent) {
			if l.(MicLevel).Level > 0.1 {
				return true
			}
		}
		return false
	})
	text, err := m.Stop()
	if err != nil || text != "What is the weather like today?" {
		t.Fatalf("Stop = %q, %v", text, err)
	}
	if s, _ := sink.lastState(); s.On {
		t.Fatalf("state %+v after Stop, want off", s)
	}
	audio := stt.received()
	if len(audio) != 1 || stt.mimes[0] != "audio/wav" {
		t.Fatalf("transcriber got %d recordings (%v)", len(audio), stt.mimes)
	}
	pcm, f, err := mic.DecodeWAV(audio[0])
	if err != nil || f != mic.Speech || len(pcm) < 16000/2 {
		t.Fatalf("recording of %d samples as %v (%v)", len(pcm), f, err)
	}
}

func TestMicHandsFreeSendsATranscriptPerUtterance(t *testing.T) {
	stt := &fakeTranscriber{texts: []string{"first", "second"}}
	m, sink := testMic(t, mic.FileSource(speechWAV(t, 2), mic.Unpaced()), stt)
	if err := m.Start(true); err != nil {
		t.Fatal(err)
	}
	sink.waitFor(t, "two transcripts", func() bool { return len(sink.of(micTranscriptEvent)) == 2 })
	got := sink.of(micTranscriptEvent)
	if got[0].(MicTranscript).Text != "first" || got[1].(MicTranscript).Text != "second" {
		t.Fatalf("transcripts %v", got)
	}
	if n := len(sink.of(micSpeechStartEvent)); n != 2 {
		t.Fatalf("%d speech starts, want 2", n)
	}
	for i, wav := range stt.received() {
		pcm, _, err := mic.DecodeWAV(wav)
		if d := time.Duration(len(pcm)) * time.Second / 16000; err != nil || d < 900*time.Millisecond || d > 1500*time.Millisecond {
			t.Fatalf("utterance %d: %v of audio (%v), want about 1 s", i, d, err)
		}
	}
	// The file has ended: the microphone says it is off by itself; Stop still answers.
	sink.waitFor(t, "the state off", func() bool { s, _ := sink.lastState(); return !s.On })
	if text, err := m.Stop(); err != nil || text != "" {
		t.Fatalf("Stop after hands-free = %q, %v; want \"\", nil", text, err)
	}
}

func TestMicHandsFreeTranscriptionError(t *testing.T) {
	stt := &fakeTranscriber{err: errors.New("speech-to-text server: 502")}
	m, sink := testMic(t, mic.FileSource(speechWAV(t, 1), mic.Unpaced()), stt)
	if err := m.Start(true); err != nil {
		t.Fatal(err)
	}
	sink.waitFor(t, "the error", func() bool {
		for _, s := range sink.of(micStateEvent) {
			if strings.Contains(s.(MicState).Error, "502") {
				return true
			}
		}
		return false
	})
	if n := len(sink.of(micTranscriptEvent)); n != 0 {
		t.Fatalf("%d transcripts despite the error", n)
	}
}

func TestMicStopWithoutStart(t *testing.T) {
	m, _ := testMic(t, mic.NullSource(), &fakeTranscriber{texts: []string{"x"}})
	if _, err := m.Stop(); err == nil || !strings.Contains(err.Error(), "not on") {
		t.Fatalf("Stop without Start: %v", err)
	}
}

func TestMicStartTwice(t *testing.T) {
	m, sink := testMic(t, mic.NullSource(), &fakeTranscriber{texts: []string{"hello"}})
	if err := m.Start(false); err != nil {
		t.Fatal(err)
	}
	// The same mode again (a held key repeats) changes nothing.
	if err := m.Start(false); err != nil {
		t.Fatalf("second push-to-talk Start: %v, want nil", err)
	}
	if n := len(sink.of(micStateEvent)); n != 1 {
		t.Fatalf("%d state events, want 1", n)
	}
	// The other mode is refused while on.
	if err := m.Start(true); err == nil || !strings.Contains(err.Error(), "already on") {
		t.Fatalf("hands-free while push-to-talk: %v", err)
	}
	if text, err := m.Stop(); err != nil || text != "hello" {
		t.Fatalf("Stop = %q, %v", text, err)
	}
	if _, err := m.Stop(); err == nil {
		t.Fatal("a second Stop answered")
	}
}

func TestMicStartErrors(t *testing.T) {
	sink := newFakeSink()
	m := newMic(micOptions{
		Detect:      func() (mic.Source, string, error) { return nil, "", mic.ErrNoCapture },
		Transcriber: &fakeTranscriber{texts: []string{"x"}},
		Events:      sink,
	})
	defer m.Close()
	if err := m.Start(false); !errors.Is(err, mic.ErrNoCapture) {
		t.Fatalf("Start without a recorder: %v", err)
	}
	if s, _ := sink.lastState(); s.On || !strings.Contains(s.Error, "pw-record") {
		t.Fatalf("state %+v, want off with the packages to install", s)
	}
	noSTT := newMic(micOptions{Events: sink})
	defer noSTT.Close()
	if err := noSTT.Start(false); !errors.Is(err, errNoTranscriber) {
		t.Fatalf("Start without a transcriber: %v", err)
	}
	missing := mic.FileSource(filepath.Join(t.TempDir(), "none.wav"))
	bad, _ := testMic(t, missing, &fakeTranscriber{texts: []string{"x"}})
	if err := bad.Start(false); err == nil {
		t.Fatal("a source that cannot start started")
	}
}

// The microphone turns itself off after Max: the page is told, and MicStop still
// transcribes what was heard.
func TestMicTurnsItselfOff(t *testing.T) {
	sink := newFakeSink()
	stt := &fakeTranscriber{texts: []string{"long"}}
	m := newMic(micOptions{
		Detect:      func() (mic.Source, string, error) { return mic.NullSource(), "null", nil },
		Transcriber: stt, Events: sink, Max: 200 * time.Millisecond,
	})
	defer m.Close()
	if err := m.Start(false); err != nil {
		t.Fatal(err)
	}
	sink.waitFor(t, "the state off", func() bool { s, _ := sink.lastState(); return !s.On })
	if s, _ := sink.lastState(); !strings.Contains(s.Error, "longest recording") {
		t.Fatalf("state %+v, want why it is off", s)
	}
	if text, err := m.Stop(); err != nil || text != "long" {
		t.Fatalf("Stop = %q, %v", text, err)
	}
	// A new Start after that works.
	if err := m.Start(false); err != nil {
		t.Fatal(err)
	}
}

// WISP_MIC_FILE makes the real Detect feed the window's microphone from a file.
func TestMicWithTheFileFromTheEnvironment(t *testing.T) {
	t.Setenv(mic.EnvFile, speechWAV(t, 1))
	sink := newFakeSink()
	m := newMic(micOptions{Transcriber: &fakeTranscriber{texts: []string{"from the file"}}, Events: sink})
	defer m.Close()
	if err := m.Start(true); err != nil {
		t.Fatal(err)
	}
	sink.waitFor(t, "the transcript", func() bool { return len(sink.of(micTranscriptEvent)) == 1 })
	if _, err := m.Stop(); err != nil {
		t.Fatal(err)
	}
}
