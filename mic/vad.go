package mic

import "time"

// The VAD's rule (the page's VAD in frontend/src/voice follows the same).
const (
	// vadFrame is the VAD's unit of time: 20 ms.
	vadFrame = speechRate / 50
	// MinSpeech is how long the sound must stay above the threshold to be speech.
	MinSpeech = 150 * time.Millisecond
	// Hangover is the silence that ends an utterance.
	Hangover = 800 * time.Millisecond
	// MaxUtterance is the longest utterance; a longer one is cut there.
	MaxUtterance = 30 * time.Second
	// preRoll is the audio kept before an utterance's start, so its first sound is whole.
	preRoll = 200 * time.Millisecond
	// vadRatio is how far above the noise floor speech is (≈ +9.5 dB).
	vadRatio = 3.0
	// vadMinLevel is the lowest threshold (RMS ≈ -42 dBFS): digital silence has a
	// floor of 0, and a quiet room's hiss is not speech.
	vadMinLevel = 0.008
	// Noise floor adaptation per frame: down fast (toward quieter), up slowly while
	// not in speech, very slowly in speech (a fan switched on ends an utterance).
	floorDown, floorUp, floorUpInSpeech = 0.2, 0.01, 0.002
)

// Utterance is one stretch of speech the VAD heard.
type Utterance struct {
	Start, End time.Duration // from the first sample fed, without the padding
	Audio      []int16       // Speech PCM from preRoll before Start to End
}

// VADEvents receives what the VAD hears; either may be nil.
type VADEvents struct {
	SpeechStart func(at time.Duration) // speech confirmed (MinSpeech above the threshold)
	Utterance   func(Utterance)        // an utterance ended (Hangover of silence, or MaxUtterance)
}

// VAD is an energy voice activity detector for Speech PCM: a 20 ms frame is loud
// when its RMS is above vadRatio × an adaptive noise floor (and above vadMinLevel);
// MinSpeech of loud frames in a row is speech; Hangover of quiet frames ends the
// utterance; MaxUtterance cuts it. Time is counted in samples fed, not by the clock.
// Not safe for concurrent use.
type VAD struct {
	ev VADEvents

	frame   []int16 // the frame being filled
	samples int64   // samples fed so far
	floor   float64
	primed  bool // the floor has its first value

	history []int16 // the last preRoll of audio while not in speech
	audio   []int16 // the utterance, while in speech or maybe

	loud      int   // loud frames in a row
	quiet     int   // quiet frames in a row (in speech)
	speaking  bool  // speech confirmed
	start     int64 // sample where the loud run began
	lastLoud  int64 // sample after the last loud frame
	audioFrom int64 // sample where audio begins
}

// NewVAD makes a VAD that tells ev what it hears.
func NewVAD(ev VADEvents) *VAD { return &VAD{ev: ev} }

// Feed gives the VAD the next samples.
func (v *VAD) Feed(pcm []int16) {
	for len(pcm) > 0 {
		n := min(vadFrame-len(v.frame), len(pcm))
		v.frame = append(v.frame, pcm[:n]...)
		pcm = pcm[n:]
		if len(v.frame) == vadFrame {
			v.step(v.frame)
			v.frame = v.frame[:0]
		}
	}
}

// Flush ends an utterance in progress (the mic is turning off) as if silence followed.
func (v *VAD) Flush() {
	if v.speaking {
		v.finish()
		return
	}
	v.reset()
}

// Floor is the current noise floor (RMS, 0–1).
func (v *VAD) Floor() float64 { return v.floor }

func (v *VAD) step(frame []int16) {
	at := v.samples
	v.samples += int64(len(frame))
	level := rms(frame)
	if !v.primed {
		v.floor, v.primed = level, true
	}
	loud := level > max(v.floor*vadRatio, vadMinLevel)
	v.adapt(level)

	if v.loud == 0 && !v.speaking {
		v.audioFrom = max(0, at-int64(len(v.history)))
		v.audio = append(v.audio[:0], v.history...)
	}
	v.audio = append(v.audio, frame...)
	switch {
	case loud:
		if v.loud == 0 && !v.speaking {
			v.start = at
		}
		v.loud++
		v.quiet = 0
		v.lastLoud = v.samples
		if !v.speaking && frames(v.loud) >= MinSpeech {
			v.speaking = true
			if v.ev.SpeechStart != nil {
				v.ev.SpeechStart(v.dur(v.start))
			}
		}
	case v.speaking:
		v.quiet++
		v.loud = 0
		if frames(v.quiet) >= Hangover {
			v.finish()
		}
	default:
		v.reset()
	}
	if v.speaking && v.dur(v.samples-v.start) >= MaxUtterance {
		v.lastLoud = v.samples
		v.finish()
		return
	}
	if !v.speaking {
		v.history = lastN(append(v.history, frame...), int(preRoll/time.Millisecond)*speechRate/1000)
	}
}

// adapt moves the noise floor toward level.
func (v *VAD) adapt(level float64) {
	rate := floorUp
	switch {
	case level < v.floor:
		rate = floorDown
	case v.speaking:
		rate = floorUpInSpeech
	}
	v.floor += (level - v.floor) * rate
}

// end hands over the utterance: from its start to its last loud frame.
func (v *VAD) end() {
	if v.ev.Utterance == nil {
		return
	}
	keep := min(int(v.lastLoud-v.audioFrom), len(v.audio))
	audio := make([]int16, keep)
	copy(audio, v.audio)
	v.ev.Utterance(Utterance{Start: v.dur(v.start), End: v.dur(v.lastLoud), Audio: audio})
}

// finish hands over the utterance and listens again from nothing.
func (v *VAD) finish() {
	v.end()
	v.reset()
	v.history = v.history[:0]
}

// reset goes back to listening for speech.
func (v *VAD) reset() {
	v.speaking, v.loud, v.quiet = false, 0, 0
	v.audio = v.audio[:0]
}

func (v *VAD) dur(samples int64) time.Duration {
	return time.Duration(samples) * time.Second / speechRate
}

// frames is how long n VAD frames last.
func frames(n int) time.Duration { return time.Duration(n) * vadFrame * time.Second / speechRate }
