package speech

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// toneScan bounds how much of a reply Tone reads: its start and its end, where a
// reply's feeling shows.
const toneScan = 4096

// MaxToneIntensity is the strongest expression a reply's tone sets: the agent's own
// choice (an action) may be stronger.
const MaxToneIntensity = 0.6

// The tones Tone answers (the avatar's expression names).
const (
	Happy     = "happy"
	Sad       = "sad"
	Angry     = "angry"
	Surprised = "surprised"
	Relaxed   = "relaxed"
)

// toneWords are the words that count towards a tone, each worth one point.
var toneWords = map[string]string{
	"glad": Happy, "happy": Happy, "great": Happy, "awesome": Happy, "wonderful": Happy, "congratulations": Happy,
	"congrats": Happy, "yay": Happy, "hooray": Happy, "fantastic": Happy, "excellent": Happy, "delighted": Happy,
	"love": Happy, "lovely": Happy, "amazing": Happy, "haha": Happy, "fun": Happy, "enjoy": Happy,
	"sorry": Sad, "sad": Sad, "unfortunately": Sad, "condolences": Sad, "regret": Sad, "heartbroken": Sad,
	"loss": Sad, "miss": Sad, "afraid": Sad, "sadly": Sad, "grief": Sad,
	"wow": Surprised, "whoa": Surprised, "surprising": Surprised, "surprised": Surprised, "incredible": Surprised,
	"unbelievable": Surprised, "unexpected": Surprised, "astonishing": Surprised, "omg": Surprised,
	"angry": Angry, "furious": Angry, "outrageous": Angry, "unacceptable": Angry, "infuriating": Angry, "annoying": Angry,
	"relax": Relaxed, "relaxed": Relaxed, "calm": Relaxed, "peaceful": Relaxed, "cozy": Relaxed, "gently": Relaxed,
	"breathe": Relaxed, "rest": Relaxed, "unwind": Relaxed,
}

// tonePhrases are phrases that count towards a tone (two points: they say more).
var tonePhrases = map[string]string{
	"no worries": Relaxed, "take your time": Relaxed, "no rush": Relaxed, "well done": Happy,
	"i'm sorry": Sad, "so sorry": Sad, "oh no": Sad, "no way": Surprised,
}

// toneEmoji are emoji that count towards a tone (two points each).
var toneEmoji = map[rune]string{
	'😀': Happy, '😃': Happy, '😄': Happy, '😁': Happy, '😊': Happy, '🙂': Happy, '😍': Happy, '🥰': Happy,
	'🎉': Happy, '🥳': Happy, '😂': Happy, '🤣': Happy, '❤': Happy, '👍': Happy, '✨': Happy,
	'😢': Sad, '😭': Sad, '😞': Sad, '😔': Sad, '☹': Sad, '💔': Sad, '😿': Sad,
	'😮': Surprised, '😲': Surprised, '😯': Surprised, '🤯': Surprised, '😱': Surprised,
	'😠': Angry, '😡': Angry, '🤬': Angry, '💢': Angry,
	'😌': Relaxed, '☺': Relaxed, '🧘': Relaxed, '😴': Relaxed, '🌿': Relaxed,
}

// Tone guesses the feeling of a reply from its emoji, words and punctuation: the
// expression's name, an intensity up to MaxToneIntensity, and ok when the reply says
// enough (two points at least, and more for the winner than for any other tone). It
// reads at most the reply's first and last toneScan bytes.
func Tone(reply string) (name string, intensity float64, ok bool) {
	score := map[string]int{}
	if len(reply) > 2*toneScan {
		scoreText(score, reply[:toneScan])
		scoreText(score, reply[len(reply)-toneScan:])
	} else {
		scoreText(score, reply)
	}
	best, second := "", 0
	for _, t := range []string{Happy, Sad, Surprised, Angry, Relaxed} {
		n := score[t]
		if best == "" || n > score[best] {
			if best != "" {
				second = score[best]
			}
			best = t
		} else if n > second {
			second = n
		}
	}
	top := score[best]
	if top < 2 || top <= second {
		return "", 0, false
	}
	return best, min(MaxToneIntensity, 0.2+0.1*float64(top-second)), true
}

// scoreText adds the points of a stretch of text to score.
func scoreText(score map[string]int, text string) {
	lower := strings.ToLower(text)
	for p, t := range tonePhrases {
		score[t] += 2 * strings.Count(lower, p)
	}
	bangs := 0
	word := 0 // start of the word being read
	for i := 0; i < len(lower); {
		r, size := utf8.DecodeRuneInString(lower[i:])
		if t, ok := toneEmoji[r]; ok {
			score[t] += 2
		}
		if r == '!' {
			bangs++
		}
		if !unicode.IsLetter(r) && r != '\'' {
			if t, ok := toneWords[lower[word:i]]; ok {
				score[t]++
			}
			word = i + size
		}
		i += size
	}
	if t, ok := toneWords[lower[word:]]; ok {
		score[t]++
	}
	if strings.Contains(lower, "?!") || strings.Contains(lower, "!?") {
		score[Surprised]++
	}
	if bangs >= 2 {
		score[Happy]++ // exclamations lift a reply that is glad already; alone they are not enough
	}
}
