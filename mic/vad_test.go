package mic

import (
	"context"
	"sync"
	"testing"
	"time"
)

// heard is what a VAD told, kept for a test.
type heard struct {
	mu         sync.Mutex
	starts     []time.Duration
	utterances []Utterance
}

func (h *heard) events() VADEvents {
	return VADEvents{
		SpeechStart: func(at time.Duration) { h.mu.Lock(); h.starts = append(h.starts, at); h.mu.Unlock() },
		Utterance:   func(u Utterance) { h.mu.Lock(); h.utterances = append(h.utterances, u); h.mu.Unlock() },
	}
}

const boundTolerance = 100 * time.Millisecond

// checkOneUtterance checks that h heard exactly one utterance from start to end.
func checkOneUtterance(t *testing.T, h *heard, start, end time.Duration) {
	t.Helper()
	h.mu.Lock()
	defer h.mu.Unlock()
	if len(h.utterances) != 1 || len(h.starts) != 1 {
		t.Fatalf("heard %d utterances and %d starts, want 1 each: %v", len(h.utterances), len(h.starts), h.starts)
	}
	u := h.utterances[0]
	if !near(u.Start, start, boundTolerance) || !near(u.End, end, boundTolerance) {
		t.Fatalf("utterance %v–%v, want %v–%v (±%v)", u.Start, u.End, start, end, boundTolerance)
	}
	if !near(h.starts[0], start, boundTolerance) {
		t.Fatalf("speech start at %v, want %v", h.starts[0], start)
	}
	// The audio holds the utterance with its pre-roll.
	if got, want := time.Duration(len(u.Audio))*time.Second/speechRate, u.End-u.Start+preRoll; !near(got, want, 2*vadFrame*time.Second/speechRate) {
		t.Fatalf("audio of %v, want %v", got, want)
	}
	if rms(u.Audio[len(u.Audio)-samplesOf(100*time.Millisecond):]) < 0.1 {
		t.Fatal("the utterance's audio does not end in the tone")
	}
}

// The file source through the Recorder into the VAD, as hands-free listening runs:
// silence, a tone burst of 1 s, silence → exactly one utterance with its bounds.
func TestFileThroughRecorderAndVAD(t *testing.T) {
	pcm := concat(silence(time.Second), tone(time.Second, 0.3), silence(1500*time.Millisecond))
	path := writeWAV(t, "burst.wav", pcm, Speech)
	var h heard
	vad := NewVAD(h.events())
	rec := NewRecorder(RecorderOptions{OnAudio: vad.Feed})
	if err := rec.Start(context.Background(), FileSource(path, Unpaced())); err != nil {
		t.Fatal(err)
	}
	select {
	case <-rec.Done():
	case <-time.After(waitLimit):
		t.Fatal("the file did not end")
	}
	wav, err := rec.Stop()
	if err != nil {
		t.Fatal(err)
	}
	checkOneUtterance(t, &h, time.Second, 2*time.Second)
	got, f, err := DecodeWAV(wav)
	if err != nil || f != Speech || len(got) != len(pcm) {
		t.Fatalf("recorded %d samples as %v (%v), want %d", len(got), f, err, len(pcm))
	}
}

// In steady background noise the floor rises to it, so the noise is not speech
// and a louder burst still is.
func TestVADAdaptsToTheNoiseFloor(t *testing.T) {
	const hiss = 0.03 // RMS ≈ -30 dBFS, well above the minimum threshold
	pcm := concat(noise(3*time.Second, hiss, 1),
		mix(noise(time.Second, hiss, 2), tone(time.Second, 0.4)),
		noise(2*time.Second, hiss, 3))
	var h heard
	vad := NewVAD(h.events())
	vad.Feed(pcm[:samplesOf(3*time.Second)])
	if f := vad.Floor(); f < hiss*0.7 || f > hiss*1.3 {
		t.Fatalf("noise floor %.4f after 3 s of noise of RMS %.2f", f, hiss)
	}
	vad.Feed(pcm[samplesOf(3*time.Second):])
	checkOneUtterance(t, &h, 3*time.Second, 4*time.Second)
}

func TestVADIgnoresShortClicks(t *testing.T) {
	var h heard
	vad := NewVAD(h.events())
	vad.Feed(concat(silence(500*time.Millisecond), tone(100*time.Millisecond, 0.5), silence(time.Second),
		tone(60*time.Millisecond, 0.5), silence(time.Second)))
	if len(h.starts) != 0 || len(h.utterances) != 0 {
		t.Fatalf("clicks shorter than %v heard as speech: %v", MinSpeech, h.utterances)
	}
}

func TestVADKeepsShortPausesInOneUtterance(t *testing.T) {
	var h heard
	vad := NewVAD(h.events())
	vad.Feed(concat(silence(500*time.Millisecond), tone(500*time.Millisecond, 0.3), silence(500*time.Millisecond),
		tone(500*time.Millisecond, 0.3), silence(time.Second)))
	checkOneUtterance(t, &h, 500*time.Millisecond, 2*time.Second)
}

func TestVADCutsAtTheLongest(t *testing.T) {
	var h heard
	vad := NewVAD(h.events())
	vad.Feed(concat(silence(time.Second), syllables(MaxUtterance+5*time.Second), silence(time.Second)))
	if len(h.utterances) != 2 {
		t.Fatalf("%d utterances, want the long one cut in 2", len(h.utterances))
	}
	if first := h.utterances[0]; !near(first.End-first.Start, MaxUtterance, boundTolerance) {
		t.Fatalf("first utterance %v–%v, want %v long", first.Start, first.End, MaxUtterance)
	}
}

// syllables is d of speech-like sound: 200 ms of tone, 100 ms of near silence.
func syllables(d time.Duration) []int16 {
	var out []int16
	for len(out) < samplesOf(d) {
		out = append(out, concat(tone(200*time.Millisecond, 0.3), tone(100*time.Millisecond, 0.003))...)
	}
	return out[:samplesOf(d)]
}

// A steady sound that starts and does not stop (a fan) is taken into the floor, so
// it ends the utterance it seemed to start instead of running to MaxUtterance.
func TestVADTakesASteadySoundIntoTheFloor(t *testing.T) {
	var h heard
	vad := NewVAD(h.events())
	vad.Feed(concat(silence(time.Second), noise(20*time.Second, 0.05, 4)))
	if len(h.utterances) != 1 || h.utterances[0].End > 10*time.Second {
		t.Fatalf("utterances %d, want 1 ending within 10 s", len(h.utterances))
	}
	if f := vad.Floor(); f < 0.03 {
		t.Fatalf("floor %.4f, want the fan's level (0.05)", f)
	}
}

func TestVADFlushEndsAnUtteranceInProgress(t *testing.T) {
	var h heard
	vad := NewVAD(h.events())
	vad.Feed(concat(silence(500*time.Millisecond), tone(500*time.Millisecond, 0.3)))
	if len(h.utterances) != 0 || len(h.starts) != 1 {
		t.Fatalf("before the flush: %d utterances, %d starts", len(h.utterances), len(h.starts))
	}
	vad.Flush()
	checkOneUtterance(t, &h, 500*time.Millisecond, time.Second)
}
